/**
 * @module
 * Sealing for the tenant's stored secrets under `SECRETS_KEY`; during a rotation a record opened
 * with `SECRETS_KEY_PREVIOUS` comes back re-sealed under the current one, for the caller to store.
 */
import type { Bindings } from "../kernel/config";
import { open, seal, type Sealed } from "../kernel/crypto";
import { secretsKeys } from "../kernel/secrets";

export interface Opened {
  text: string;
  resealed: Sealed | null;
}

export class Sealer {
  constructor(private readonly env: Bindings) {}

  /** `text` sealed under the current key, bound to `context`; null without a usable SECRETS_KEY. */
  async seal(text: string, context: string): Promise<Sealed | null> {
    const keys = await this.#keys();
    return keys && seal(text, keys[0], context);
  }

  /** The secret in `sealed`, or null when no configured key opens it for `context`. */
  async open(sealed: Sealed, context: string): Promise<Opened | null> {
    const keys = await this.#keys();
    const text = keys && (await open(sealed, keys, context));
    if (!keys || text === null) return null;
    return {
      text,
      resealed: sealed.kid === keys[0].kid ? null : await seal(text, keys[0], context),
    };
  }

  /**
   * The secret sealed in the one row (`id = 1`) of `table` (a constant, never input), re-sealed
   * there under the current key when an older one opened it; null when none opens it.
   */
  async openStored(
    sql: SqlStorage,
    table: string,
    sealed: Sealed,
    context: string,
  ): Promise<string | null> {
    const opened = await this.open(sealed, context);
    if (opened?.resealed)
      sql.exec(
        `UPDATE ${table} SET sealed = ? WHERE id = 1 AND sealed = ?`,
        JSON.stringify(opened.resealed),
        JSON.stringify(sealed),
      );
    return opened?.text ?? null;
  }

  async #keys() {
    try {
      return await secretsKeys(this.env);
    } catch {
      return null;
    }
  }
}
