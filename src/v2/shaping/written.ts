/**
 * @module
 * What a `/v2` write may make stale in the tenant's memory, forgotten in one call to its object:
 * the cached reads of the resource written to (`reference-cache.ts`) and the remembered code→id
 * pairs of the kinds listed there (`code-cache.ts`). A write to `/Departments` may rename a
 * department's code or give an old code to a new department, and change the list a cached read
 * holds.
 */
import { log } from "../../kernel/log";
import { unwrap } from "../../kernel/outcome";
import type { V2Request } from "../passthrough";
import { asHolder } from "../../kernel/stubs";
import { kindsListedAt } from "./code-refs";
import { REFERENCE_RESOURCES, resourceOf } from "./reference-cache";

/**
 * Forgets what `r` may make stale, if anything. Called before the write (so a read or lookup
 * racing it is not kept, and a write whose isolate dies before its second call still leaves
 * nothing from before it) and after it, whatever its answer or failure (it may have been applied).
 * Before the write a failure to reach the object is thrown (nothing was sent); after it it is
 * logged, as the write's answer matters more. What is left: a read or lookup that saw the list
 * before the write was applied and is kept after the second forget; it lives at most
 * `REFERENCE_TTL_MS` or `CODE_IDS_FOR_MS`, as does any change made outside the gateway.
 *
 * @param r the write
 * @param stage before it is sent, or after it (in a `finally`)
 * @example await forgetWritten(r, "before")
 */
export async function forgetWritten(r: V2Request, stage: "before" | "after"): Promise<void> {
  const cached = resourceOf(r.path);
  const stale = {
    resource: REFERENCE_RESOURCES.has(cached) ? cached : null,
    kinds: kindsListedAt(r.path),
  };
  if (stale.resource === null && stale.kinds.length === 0) return;
  const forget = async () =>
    unwrap(await asHolder(r.env, r.caller, (face) => face.forgetWritten(stale)));
  if (stage === "before") return void (await forget());
  await forget().catch((err: unknown) =>
    log.warn("stale-forget-failed", {
      requestId: r.requestId,
      ...stale,
      error: err instanceof Error ? err.name : "unknown",
    }),
  );
}
