/**
 * @module
 * `SandboxClient`: one per environment and client (`demo:<clientId>`), holding that client's
 * accounting data. No other client's object is ever addressed with its token, so each client's data
 * is its own. Methods return `Result`s instead of throwing: a rejection across RPC is noise in tests
 * and carries no status.
 */
import { DurableObject } from "cloudflare:workers";
import { CustomerPost } from "../../../src/lib/v2/customers";
import type { JsonPatch } from "../../../src/lib/v2/json-patch";
import type { SandboxEnv } from "../env";
import { CUSTOMER_DTO_FIELDS, CUSTOMER_NUMBER_SERIES, customerDto, customerFilter, writableView } from "../lib/customers";
import { applyPatch } from "../lib/json-patch";
import { problems, schemaProblem, type Result } from "../lib/problem";
import { pageOf, type Paging } from "../lib/query";

const SCHEMA_VERSION = "1";
type Dto = Record<string, unknown>;

export class SandboxClient extends DurableObject<SandboxEnv> {
  constructor(ctx: DurableObjectState, env: SandboxEnv) {
    super(ctx, env);
    this.#migrate();
  }

  /** `GET /Customers`: filtered, ordered, paged and projected. */
  listCustomers(query: [string, string][], paging: Paging): Result<{ items: Dto[]; total: number }> {
    const filter = customerFilter(new Map(query));
    if (!filter.ok) return filter;
    const all = this.#all().filter(filter.value);
    return pageOf(all, paging, CUSTOMER_DTO_FIELDS);
  }

  /** `GET /Customers/{id}`. */
  getCustomer(id: number): Result<Dto> {
    const dto = this.#one(id);
    return dto ? { ok: true, value: dto } : { ok: false, problem: problems.notFound("Customer", id) };
  }

  /** `POST /Customers`: validates, applies the API's rules, assigns id and number. */
  createCustomer(body: unknown): Result<Dto> {
    const parsed = CustomerPost.safeParse(body);
    if (!parsed.success) return { ok: false, problem: schemaProblem(parsed.error) };
    const post = parsed.data;
    const rule = this.#checkRules(post, null);
    if (rule) return { ok: false, problem: rule };
    const now = new Date().toISOString();
    const id = this.#nextId();
    const number = post.Number ?? this.#nextNumber();
    if (number === null) return { ok: false, problem: problems.validation("Customer", "The customer number series is full.") };
    const dto = customerDto(post, { id, number, createdAt: now, changedAt: now, addressId: this.#nextId() });
    this.#save(dto);
    return { ok: true, value: dto };
  }

  /** `PATCH /Customers/{id}`: applies a JSON Patch to the writable fields, all or nothing. */
  patchCustomer(id: number, patch: JsonPatch): Result<Dto> {
    const current = this.#one(id);
    if (!current) return { ok: false, problem: problems.notFound("Customer", id) };
    const applied = applyPatch(writableView(current), patch);
    if (!applied.ok) {
      return { ok: false, problem: { status: 400, title: "Customer validation error(s)", detail: `Operation ${applied.index}: ${applied.message}.` } };
    }
    const parsed = CustomerPost.safeParse(applied.value);
    if (!parsed.success) return { ok: false, problem: schemaProblem(parsed.error) };
    const rule = this.#checkRules(parsed.data, id);
    if (rule) return { ok: false, problem: rule };
    const number = parsed.data.Number ?? (current.Number as number);
    const address = current.MailAddress as { Id: number };
    const dto = customerDto(parsed.data, {
      id,
      number,
      createdAt: String(current.CustomerCreatedDateTimeOffset),
      changedAt: new Date().toISOString(),
      addressId: address.Id,
    });
    this.#save(dto);
    return { ok: true, value: dto };
  }

  /** `DELETE /Customers/{id}`. */
  deleteCustomer(id: number): Result<null> {
    if (!this.#one(id)) return { ok: false, problem: problems.notFound("Customer", id) };
    this.ctx.storage.sql.exec("DELETE FROM customers WHERE id = ?", id);
    return { ok: true, value: null };
  }

  /** Removes all of this client's data (sandbox reset). */
  async wipe(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.#migrate();
  }

  /** Uniqueness and series rules of the API; `self` is the id being changed, if any. */
  #checkRules(post: CustomerPost, self: number | null) {
    if (post.ContactGroupIds?.length) return problems.notFound("ContactGroup", post.ContactGroupIds[0] ?? "");
    if (post.Number != null) {
      if (post.Number < CUSTOMER_NUMBER_SERIES.first || post.Number > CUSTOMER_NUMBER_SERIES.last) {
        return problems.validation("Customer", `Number ${post.Number} is outside the customer number series ${CUSTOMER_NUMBER_SERIES.first}-${CUSTOMER_NUMBER_SERIES.last}.`);
      }
      const taken = this.ctx.storage.sql.exec<{ id: number }>("SELECT id FROM customers WHERE number = ? AND id IS NOT ?", post.Number, self).toArray()[0];
      if (taken) return problems.validation("Customer", `Number ${post.Number} is already in use on (contact) Id = ${taken.id}.`);
    }
    const ref = post.ExternalImportReference;
    if (ref) {
      const taken = this.ctx.storage.sql.exec<{ id: number }>("SELECT id FROM customers WHERE external_ref = ? AND id IS NOT ?", ref, self).toArray()[0];
      if (taken) return problems.validation("Customer", `ExternalImportReference is already in use. '${ref}' is used on (contact) Id = ${taken.id}.`);
    }
    return null;
  }

  #all(): Dto[] {
    return this.ctx.storage.sql.exec<{ data: string }>("SELECT data FROM customers ORDER BY id").toArray().map((r) => JSON.parse(r.data));
  }

  #one(id: number): Dto | null {
    const row = this.ctx.storage.sql.exec<{ data: string }>("SELECT data FROM customers WHERE id = ?", id).toArray()[0];
    return row ? JSON.parse(row.data) : null;
  }

  #save(dto: Dto): void {
    this.ctx.storage.sql.exec(
      `INSERT INTO customers (id, number, external_ref, data) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET number = excluded.number, external_ref = excluded.external_ref, data = excluded.data`,
      dto.Id as number,
      dto.Number as number,
      (dto.ExternalImportReference as string | null) ?? null,
      JSON.stringify(dto),
    );
  }

  /** Ids start at a random point per client, so one client's ids mean nothing to another. */
  #nextId(): number {
    const row = this.ctx.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'next_id'").toArray()[0];
    const id = row ? Number(row.value) : 1_000_000 + Math.floor(Math.random() * 900_000_000);
    this.ctx.storage.sql.exec("INSERT INTO meta (key, value) VALUES ('next_id', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", String(id + 2));
    return id;
  }

  #nextNumber(): number | null {
    const row = this.ctx.storage.sql
      .exec<{ n: number | null }>("SELECT MAX(number) AS n FROM customers WHERE number BETWEEN ? AND ?", CUSTOMER_NUMBER_SERIES.first, CUSTOMER_NUMBER_SERIES.last)
      .toArray()[0];
    const next = (row?.n ?? CUSTOMER_NUMBER_SERIES.first - 1) + 1;
    return next > CUSTOMER_NUMBER_SERIES.last ? null : next;
  }

  #migrate(): void {
    const sql = this.ctx.storage.sql;
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const version = sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'schema'").toArray()[0]?.value;
    if (version === SCHEMA_VERSION) return;
    sql.exec("CREATE TABLE IF NOT EXISTS customers (id INTEGER PRIMARY KEY, number INTEGER, external_ref TEXT, data TEXT NOT NULL)");
    sql.exec("CREATE INDEX IF NOT EXISTS customers_number ON customers (number)");
    sql.exec("CREATE INDEX IF NOT EXISTS customers_external_ref ON customers (external_ref)");
    sql.exec("INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", SCHEMA_VERSION);
  }
}
