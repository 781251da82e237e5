/**
 * @module
 * The reference cache's part of the operator's face (`tenant/operator-sections.ts` composes it):
 * the same cache a gateway key's reads use, for the mapping's check against the books
 * (`orders/mapping-check.ts`) and the operator's writes to the chart.
 */
import { ok, type Outcome } from "../../kernel/outcome";
import type { KeepAsk, Kept, ReadAsk } from "../../tenant/holder-ops";
import type { TenantParts } from "../../tenant/parts";
import type { TenantRecord } from "../../tenant/registration";
import type { ReferenceRead } from "./reference-cache";

/** What the reference methods read of the tenant. */
type ReferencesHost = Pick<TenantParts, "references" | "arm">;

/**
 * Keeps a reference answer read under `ask.generation`, unless its resource was written since, and
 * arms the alarm for its expiry: for a holder's reads and the operator's alike.
 */
export async function keepReference(
  t: ReferencesHost,
  ask: KeepAsk,
): Promise<Outcome<Kept | null>> {
  const kept = t.references.keep(ask.key, ask.resource, ask.generation, ask.answer, Date.now());
  if (kept) await t.arm();
  return ok(kept);
}

/** The operator's methods for the tenant's cached reference reads. */
export class ReferencesSection {
  readonly #t: ReferencesHost;

  constructor(t: ReferencesHost) {
    this.#t = t;
  }

  /** A cached reference answer, or the generation a fresh read will be kept under. */
  referenceRead(_: TenantRecord, ask: ReadAsk): Outcome<ReferenceRead> {
    return ok(this.#t.references.read(ask.key, ask.resource, ask.refresh, Date.now()));
  }

  /** Keeps a reference answer read under `generation`, unless its resource was written since. */
  referenceKeep(_: TenantRecord, ask: KeepAsk): Promise<Outcome<Kept | null>> {
    return keepReference(this.#t, ask);
  }

  /** Forgets the cached reads of `resource` (the operator wrote to it: a chart account created). */
  referenceForget(_: TenantRecord, resource: string): Outcome<null> {
    this.#t.references.forget(resource);
    return ok(null);
  }
}
