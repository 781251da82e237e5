/**
 * @module
 * The operator's face, composed from its capabilities' sections (such as
 * `orders/tenant/operator-section.ts`): `addSections` copies each method onto the face's prototype
 * behind the one check, that the tenant is registered. See docs/design/faces.md.
 */
import { fail, type Outcome } from "../kernel/outcome";
import { NO_TENANT, type TenantParts } from "./parts";
import type { TenantRecord } from "./registration";

/** A section: its constructor types the slice it reads; its methods take the record first. */
export type SectionClass = new (parts: TenantParts) => object;

/** A section's methods as the face answers them: the face supplies the record; RPC awaits. */
export type Sectioned<S> = {
  [K in keyof S]: S[K] extends (r: TenantRecord, ...args: infer A) => infer R
    ? Awaited<R> extends Outcome<unknown>
      ? (...args: A) => Promise<Awaited<R>>
      : never
    : never;
};

/** What a face instance holds for its sections: the registration, and one instance of each. */
export interface SectionState {
  record(): TenantRecord | null;
  of(section: SectionClass): object;
}

/** A method as the composition calls it; the compiler checked its shape through `Sectioned`. */
type Method = (r: TenantRecord, ...args: unknown[]) => unknown;

/**
 * Adds every method of `sections` to `face`'s prototype, answering `not-found` for a tenant not
 * registered. Throws at load on a name declared twice: one would silently hide the other.
 */
export function addSections(
  face: { prototype: object },
  sections: readonly SectionClass[],
  stateOf: (face: object) => SectionState,
): void {
  for (const section of sections)
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(section.prototype))) {
      if (name === "constructor" || typeof d.value !== "function") continue;
      if (name in face.prototype)
        throw new Error(`operator method ${name} is declared twice (${section.name})`);
      // `Sectioned` typed the method from the section's declaration; here it is one by name.
      const method = d.value as Method;
      Object.defineProperty(face.prototype, name, {
        async value(this: object, ...args: unknown[]) {
          const state = stateOf(this);
          const r = state.record();
          return r ? method.call(state.of(section), r, ...args) : fail("not-found", NO_TENANT);
        },
      });
    }
}
