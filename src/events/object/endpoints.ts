/**
 * @module
 * A tenant's webhook endpoints (table `endpoints`), each secret sealed under `SECRETS_KEY` and
 * shown once. See docs/design/events.md.
 */
import { z } from "zod";
import { endpointUrl } from "../endpoint-url";
import { newEndpointId } from "../ids";
import { newEndpointSecret } from "../sign";
import { subscribes, type EndpointHeld, type EndpointTypes, type EndpointView } from "../types";
import { fail, failOn, ok, type Outcome } from "../../kernel/outcome";
import { row, rows } from "../../tenant/sql";
import { EndpointRow as Row, view } from "./endpoint-row";
import type { Sealer } from "../../tenant/sealer";

/** Endpoints one tenant may have: enough for every system it feeds, few enough to fan out fast. */
export const MAX_ENDPOINTS = 20;
/** How long the secret before a rotation keeps signing beside the new one, ms. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface EndpointInput {
  url?: string;
  types?: EndpointTypes;
  description?: string | null;
  maxPerSecond?: number | null;
  ordered?: boolean;
  enabled?: boolean;
}

/** What a new endpoint's owner is shown once. */
export interface NewEndpoint {
  id: string;
  url: string;
  types: EndpointTypes;
  secret: string;
}

/** A rotated secret, shown once, and until when the previous one signs too. */
export interface RotatedSecret {
  id: string;
  secret: string;
  previousSecretExpiresAt: string;
}

const COUNT = z.object({ n: z.int() });
const DUE = z.object({ due: z.int().nullable() });

const NOT_FOUND = fail("not-found", "No such endpoint.");
const UNSEALED = fail(
  "misconfigured",
  "SECRETS_KEY is missing or malformed, so the endpoint's secret cannot be sealed or opened.",
);

export class Endpoints {
  constructor(
    private readonly sql: SqlStorage,
    private readonly sealer: Sealer,
    /** What waits behind an ordered endpoint's head (the outbox's `held`). */
    private readonly held: (id: string) => EndpointHeld | null,
    /** The sealing context of an endpoint's secret: bound to the tenant and the endpoint. */
    private readonly context: (id: string) => string,
    private readonly allowLoopback: () => boolean,
  ) {}

  async create(input: EndpointInput, now: number): Promise<Outcome<NewEndpoint>> {
    const count = row(this.sql, COUNT, "SELECT COUNT(*) AS n FROM endpoints")?.n ?? 0;
    if (count >= MAX_ENDPOINTS)
      return fail("conflict", `A tenant has at most ${MAX_ENDPOINTS} endpoints; delete one first.`);
    const url = this.#url(input.url ?? "");
    if (!url.ok) return url;
    const id = newEndpointId();
    const secret = newEndpointSecret();
    const sealed = await this.sealer.seal(secret, this.context(id));
    if (!sealed) return UNSEALED;
    const types = input.types ?? ["*"];
    this.sql.exec(
      `INSERT INTO endpoints (id, url, types, description, max_per_second, ordered, secret, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'enabled', ?, ?)`,
      id,
      url.value,
      JSON.stringify(types),
      input.description ?? null,
      input.maxPerSecond ?? null,
      input.ordered ? 1 : 0,
      JSON.stringify(sealed),
      now,
      now,
    );
    return ok({ id, url: url.value, types, secret });
  }

  list(): EndpointView[] {
    return rows(this.sql, Row, "SELECT * FROM endpoints ORDER BY created_at, id").map((r) =>
      view(r, this.held(r.id)),
    );
  }

  get(id: string): Outcome<EndpointView> {
    const r = this.#row(id);
    return r ? ok(view(r, this.held(id))) : NOT_FOUND;
  }

  /** Changes what `input` names; `enabled: true` also forgets why it was disabled. */
  update(id: string, input: EndpointInput, now: number): Outcome<EndpointView> {
    const r = this.#row(id);
    if (!r) return NOT_FOUND;
    const url = input.url === undefined ? ok(r.url) : this.#url(input.url);
    if (!url.ok) return url;
    const enable = input.enabled === true && r.state === "disabled";
    const disable = input.enabled === false && r.state === "enabled";
    this.sql.exec(
      `UPDATE endpoints SET url = ?, types = ?, description = ?, max_per_second = ?, ordered = ?, updated_at = ? WHERE id = ?`,
      url.value,
      JSON.stringify(input.types ?? r.types),
      input.description === undefined ? r.description : input.description,
      input.maxPerSecond === undefined ? r.max_per_second : input.maxPerSecond,
      input.ordered === undefined ? (r.ordered ?? 0) : input.ordered ? 1 : 0,
      now,
      id,
    );
    if (enable)
      this.sql.exec(
        "UPDATE endpoints SET state = 'enabled', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL WHERE id = ?",
        id,
      );
    if (disable) this.disable(id, "Disabled by its owner.", now);
    return this.get(id);
  }

  /**
   * When a send to `id` may go, at `now` or later: its pace's next free slot, taken. An endpoint
   * without a pace (or gone) sends at once. Slots are kept in storage, so a burst that waits keeps
   * its order and spacing across evictions.
   */
  reserve(id: string, now: number): number {
    const r = this.#row(id);
    if (!r?.max_per_second) return now;
    const slot = Math.max(now, r.next_slot_at ?? 0);
    this.sql.exec(
      "UPDATE endpoints SET next_slot_at = ? WHERE id = ?",
      slot + Math.ceil(1000 / r.max_per_second),
      id,
    );
    return slot;
  }

  remove(id: string): boolean {
    if (!this.#row(id)) return false;
    this.sql.exec("DELETE FROM endpoints WHERE id = ?", id);
    return true;
  }

  /** A new secret; the current one keeps signing for `SECRET_OVERLAP_MS`. */
  async rotate(id: string, now: number): Promise<Outcome<RotatedSecret>> {
    const r = this.#row(id);
    if (!r) return NOT_FOUND;
    const secret = newEndpointSecret();
    const sealed = await this.sealer.seal(secret, this.context(id));
    if (!sealed) return UNSEALED;
    const until = now + SECRET_OVERLAP_MS;
    this.sql.exec(
      "UPDATE endpoints SET secret = ?, previous_secret = ?, previous_until = ?, updated_at = ? WHERE id = ?",
      JSON.stringify(sealed),
      JSON.stringify(r.secret),
      until,
      now,
      id,
    );
    return ok({ id, secret, previousSecretExpiresAt: new Date(until).toISOString() });
  }

  /**
   * What a delivery to `id` needs, its signing secrets opened (current first); null: no such
   * endpoint. A secret sealed under the previous `SECRETS_KEY` is resealed.
   */
  async target(
    id: string,
    now: number,
  ): Promise<Outcome<{
    url: string;
    enabled: boolean;
    ordered: boolean;
    secrets: string[];
  }> | null> {
    const r = this.#row(id);
    if (!r) return null;
    const current = await this.sealer.open(r.secret, this.context(id));
    if (!current) return UNSEALED;
    if (current.resealed)
      this.sql.exec(
        "UPDATE endpoints SET secret = ? WHERE id = ?",
        JSON.stringify(current.resealed),
        id,
      );
    const live = r.previous_secret && r.previous_until !== null && r.previous_until > now;
    const previous =
      live && r.previous_secret
        ? await this.sealer.open(r.previous_secret, this.context(id))
        : null;
    const secrets = previous ? [current.text, previous.text] : [current.text];
    return ok({ url: r.url, enabled: r.state === "enabled", ordered: r.ordered === 1, secrets });
  }

  subscribers(type: string): string[] {
    return rows(this.sql, Row, "SELECT * FROM endpoints WHERE state = 'enabled'")
      .filter((r) => subscribes(r.types, type))
      .map((r) => r.id);
  }

  takes(id: string, type: string): boolean {
    const r = this.#row(id);
    return r !== null && r.state === "enabled" && subscribes(r.types, type);
  }

  typesOf(id: string): { types: EndpointTypes; enabled: boolean } | null {
    const r = this.#row(id);
    return r && { types: r.types, enabled: r.state === "enabled" };
  }

  isOrdered(id: string): boolean {
    return this.#row(id)?.ordered === 1;
  }

  succeeded(id: string): void {
    this.sql.exec("UPDATE endpoints SET failing_since = NULL WHERE id = ?", id);
  }

  /** A delivery failed at `now`: since when the endpoint fails (kept from its first failure). */
  failed(id: string, now: number): number {
    this.sql.exec(
      "UPDATE endpoints SET failing_since = COALESCE(failing_since, ?) WHERE id = ?",
      now,
      id,
    );
    return this.#row(id)?.failing_since ?? now;
  }

  /** Disables endpoint `id`, saying why: no delivery goes to it until it is enabled again. */
  disable(id: string, reason: string, now: number): void {
    this.sql.exec(
      "UPDATE endpoints SET state = 'disabled', disabled_reason = ?, disabled_at = ?, updated_at = ? WHERE id = ?",
      reason.slice(0, 500),
      now,
      now,
      id,
    );
  }

  /** When a previous secret stops signing next (its row is then cleared by `purge`), or null. */
  dueAt(): number | null {
    return (
      row(
        this.sql,
        DUE,
        "SELECT MIN(previous_until) AS due FROM endpoints WHERE previous_secret IS NOT NULL",
      )?.due ?? null
    );
  }

  /** Drops previous secrets whose overlap has ended. */
  purge(now: number): void {
    this.sql.exec(
      "UPDATE endpoints SET previous_secret = NULL, previous_until = NULL WHERE previous_until <= ?",
      now,
    );
  }

  clear(): number {
    const n = row(this.sql, COUNT, "SELECT COUNT(*) AS n FROM endpoints")?.n ?? 0;
    this.sql.exec("DELETE FROM endpoints");
    return n;
  }

  #url(text: string): Outcome<string> {
    const url = endpointUrl(text, this.allowLoopback());
    return url.ok ? url : failOn("url", "bad-request", `The endpoint's url ${url.error}.`);
  }

  #row(id: string): Row | null {
    return row(this.sql, Row, "SELECT * FROM endpoints WHERE id = ?", id);
  }
}
