/**
 * @module
 * The tenant object's face for an OAuth grant (an assistant connected through the approval page,
 * `assistants/oauth/`). A grant is not a gateway key: it opens what an MCP tool call needs and
 * nothing more (`holder-ops.ts`: a token, the `/v2` shaping state, the runs to read, prepared
 * writes), and not a run's retry nor another grant. `grantAccess` checks the grant once, against
 * its row (`assistant-grants.ts`) and the tenant's current registration, and hands out a
 * `GrantFace` or a `RefusedGrantFace` with the same methods, as `forKey` does for keys: each call
 * takes a new face, so a grant revoked, expired or outlived by its tenant is refused at the next
 * call.
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
/** What an approval asks the object to record (`assistant-grants.ts`). */
export type GrantAsk = NewGrant;

/** A live grant as the MCP door sees it: its scope and its end. */
export interface GrantUse {
  scope: Scope;
  expiresAt: number;
}

/** What the holder of a live OAuth grant may do with its tenant's object. */
export interface GrantHolder extends TenantHolder {
  /** The door's check: the grant's scope and end, noting the use (`lastUsedAt`). */
  use(): Promise<Outcome<GrantUse>>;
}

/** What `Tenant.forGrant` hands out: a `GrantFace` or a `RefusedGrantFace`. */
export type GrantHolderFace = GrantHolder & RpcTarget;

/**
 * Records an approved grant for the tenant's current registration (the key holder's and the
 * operator's faces both approve through this): refused when the tenant holds too many.
 */
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

/** What a grant's face reads of the tenant: a holder's, and its grant's row. */
type GrantParts = HolderParts & Pick<TenantParts, "grants">;

/**
 * The one check of a grant: its row, under the current registration, before its end; then a face
 * bound to that grant and that registration.
 */
export function grantAccess(
  parts: GrantParts & Pick<TenantParts, "registration">,
  grantId: string,
): GrantHolderFace {
  const r = parts.registration.get();
  const grant = r && parts.grants.live(grantId, r.registrationId, Date.now());
  return r && grant ? new GrantFace(parts, grant, ownerOf(r)) : new RefusedGrantFace();
}

/** A live grant's face: what every holder opens (`HolderFace`), and the door's check of its use. */
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

/**
 * Revoked, expired, unknown, or its tenant removed or registered anew: never told apart, the same
 * detail for all.
 */
const REFUSED = fail("unauthorized", "The grant is not valid: connect the assistant again.");

/** A grant that did not check out: every method answers `REFUSED` and touches nothing. */
const RefusedGrantFace = refusing(GrantFace, REFUSED);
