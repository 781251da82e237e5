/**
 * @module
 * The tenant object's face for an assistant's OAuth grant: what an MCP tool call needs and nothing
 * more. `grantAccess` checks the grant's row once and hands out a `GrantFace` or a
 * `RefusedGrantFace`, as `forKey` does for keys. See docs/design/faces.md.
 */
import type { RpcTarget } from "cloudflare:workers";
import type { Scope } from "../assistants/mcp/principal";
import { fail, ok, type Outcome } from "../kernel/outcome";
import {
  viewOf,
  type GrantView,
  type NewGrant,
  type StoredGrant,
} from "../assistants/tenant/assistant-grants";
import { refusing } from "./refusing";
import { HolderFace, type HolderParts, type TenantHolder } from "./holder-ops";
import type { RunOwner } from "../orders/tenant/order-desk";
import { ownerOf, type TenantParts } from "./parts";

export type { GrantView } from "../assistants/tenant/assistant-grants";
export type GrantAsk = NewGrant;

/** A live grant as the MCP door sees it: its scope and its end. */
export interface GrantUse {
  scope: Scope;
  expiresAt: number;
}

export interface GrantHolder extends TenantHolder {
  /** The door's check: the grant's scope and end, noting the use (`lastUsedAt`). */
  use(): Promise<Outcome<GrantUse>>;
}

/** What `Tenant.forGrant` hands out: a `GrantFace` or a `RefusedGrantFace`. */
export type GrantHolderFace = GrantHolder & RpcTarget;

/** Records an approved grant (key holder's or operator's) unless the tenant holds too many. */
export async function addGrant(
  parts: Pick<TenantParts, "grants" | "arm">,
  owner: RunOwner,
  ask: GrantAsk,
): Promise<Outcome<GrantView>> {
  const now = Date.now();
  const added = parts.grants.add(ask, owner.registration, now);
  if (!added.ok)
    return fail(
      "conflict",
      "The tenant holds as many assistant connections as it may (100): revoke one in the console first.",
    );
  const stored = parts.grants.live(ask.id, owner.registration, now);
  if (!stored) return fail("bad-request", "The grant ends before it begins: pick a lifetime.");
  // The alarm purges the row at its end.
  await parts.arm();
  return ok(viewOf(stored));
}

type GrantParts = HolderParts & Pick<TenantParts, "grants">;

/** The one check of a grant: its row, under the current registration, before its end. */
export function grantAccess(
  parts: GrantParts & Pick<TenantParts, "registration">,
  grantId: string,
): GrantHolderFace {
  const r = parts.registration.get();
  const grant = r && parts.grants.live(grantId, r.registrationId, Date.now());
  return r && grant ? new GrantFace(parts, grant, ownerOf(r)) : new RefusedGrantFace();
}

class GrantFace extends HolderFace implements GrantHolder {
  readonly #parts: GrantParts;
  readonly #grant: StoredGrant;

  /** An isolate may keep a copy of a token as for a key, never past the grant's end. */
  constructor(parts: GrantParts, grant: StoredGrant, owner: RunOwner) {
    super(parts, owner, grant.expiresAt);
    this.#parts = parts;
    this.#grant = grant;
  }

  async use(): Promise<Outcome<GrantUse>> {
    this.#parts.grants.touch(this.#grant, Date.now());
    return ok({ scope: this.#grant.scope, expiresAt: this.#grant.expiresAt });
  }
}

/** Revoked, expired, unknown, or its tenant gone: never told apart. */
const REFUSED = fail("unauthorized", "The grant is not valid: connect the assistant again.");

const RefusedGrantFace = refusing(GrantFace, REFUSED);
