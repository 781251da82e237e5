/**
 * @module
 * The reference cache's part of the operator's face: the same cache a gateway key's reads use, for
 * the mapping's check against the books and the operator's writes to the chart.
 */
import { ok, type Outcome } from "../../kernel/outcome";
import type { KeepAsk, Kept, ReadAsk } from "../../tenant/holder-ops";
import type { TenantParts } from "../../tenant/parts";
import type { TenantRecord } from "../../tenant/registration";
import type { ReferenceRead } from "./reference-cache";

type ReferencesHost = Pick<TenantParts, "references" | "arm">;

/** Keeps an answer read under `ask.generation` unless its resource was written since. */
export async function keepReference(
  t: ReferencesHost,
  ask: KeepAsk,
): Promise<Outcome<Kept | null>> {
  const kept = t.references.keep(ask.key, ask.resource, ask.generation, ask.answer, Date.now());
  if (kept) await t.arm();
  return ok(kept);
}

export class ReferencesSection {
  readonly #t: ReferencesHost;

  constructor(t: ReferencesHost) {
    this.#t = t;
  }

  referenceRead(_: TenantRecord, ask: ReadAsk): Outcome<ReferenceRead> {
    return ok(this.#t.references.read(ask.key, ask.resource, ask.refresh, Date.now()));
  }

  referenceKeep(_: TenantRecord, ask: KeepAsk): Promise<Outcome<Kept | null>> {
    return keepReference(this.#t, ask);
  }

  /** Forgets the cached reads of `resource` (the operator wrote to it: a chart account created). */
  referenceForget(_: TenantRecord, resource: string): Outcome<null> {
    this.#t.references.forget(resource);
    return ok(null);
  }
}
