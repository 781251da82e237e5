/** @module What a write may make stale (cached reads, code→id pairs), forgotten in one call. */
import { log } from "../../kernel/log";
import { unwrap } from "../../kernel/outcome";
import type { V2Request } from "../passthrough";
import { asHolder } from "../../kernel/stubs";
import { kindsListedAt } from "./code-refs";
import { REFERENCE_RESOURCES, resourceOf } from "./reference-cache";

/**
 * Forgets what `r` may make stale, before the write and after it whatever came of it. A failure
 * is thrown before (nothing was sent) and logged after. See docs/design/v2-passthrough.md.
 *
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
