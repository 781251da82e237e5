/**
 * @module
 * The tenant object's face for its watcher: the current books (an opaque id of registration and
 * client key) and a token only for those books, so a watcher of replaced books gets none.
 * Unchecked, like the operator's face, and gives no more. See docs/design/events.md.
 */
import { RpcTarget } from "cloudflare:workers";
import { fail, ok, type Outcome } from "../../kernel/outcome";
import type { TenantParts } from "../../tenant/parts";
import type { Access } from "../../upstream/tenant/token-keeper";

const GONE = fail(
  "not-found",
  "The tenant's books the watcher read are gone (the tenant was removed or its client key replaced).",
);

export class WatcherFace extends RpcTarget {
  readonly #parts: Pick<TenantParts, "registration" | "tokens">;

  constructor(parts: Pick<TenantParts, "registration" | "tokens">) {
    super();
    this.#parts = parts;
  }

  /** The tenant's books now; not-found if none. */
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
