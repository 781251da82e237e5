/**
 * @module
 * The tenant object's face for its watcher (`events/watcher/watcher-object.ts`), which polls the
 * API for changes made elsewhere with the tenant's own token. Two methods: which books the tenant
 * has now, and a token for a poll of those books. The books are the current registration and client
 * key (`books()`, an opaque id of the two, never the key); a token is handed out only for the books
 * asked for, so a watcher that still reads a removed tenant's or a replaced client key's books
 * gets none (it starts afresh on the new books instead, `Watcher`).
 *
 * Unchecked, like the operator's face: the object has no credential of the watcher's to check.
 * The watcher is reached only by a tenant name the gateway derived (`kernel/stubs.ts`), and a
 * holder of the namespace binding could already ask the operator's face for the registration and
 * run a run's face with it; this face gives no more than that, and only the token.
 */
import { RpcTarget } from "cloudflare:workers";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import type { TenantParts } from "../../tenant/parts";
import type { Access } from "../../upstream/tenant/token-keeper";

const GONE = fail(
  "not-found",
  "The tenant's books the watcher read are gone (the tenant was removed or its client key replaced).",
);

/** A token for the watcher's polls, and which books it reads. */
export class WatcherFace extends RpcTarget {
  readonly #parts: Pick<TenantParts, "registration" | "tokens">;

  constructor(parts: Pick<TenantParts, "registration" | "tokens">) {
    super();
    this.#parts = parts;
  }

  /** The tenant's books now (registration and client key, as an opaque id); not-found if none. */
  async books(): Promise<Outcome<string>> {
    const r = this.#parts.registration.get();
    return r ? ok(`${r.registrationId}/${r.clientKeyId}`) : GONE;
  }

  /** A token for a poll of `books`, while they are still the tenant's. */
  async access(books: string): Promise<Outcome<Access>> {
    const current = await this.books();
    if (!current.ok || current.value !== books) return GONE;
    return this.#parts.tokens.access();
  }
}
