/**
 * @module
 * Codes for ids, as one caller's request sees them: the tenant's cache of code→id pairs
 * (`v2/tenant/code-ids.ts`) and the lookup GETs (`code-refs.ts` decides what to ask). Also
 * where the gateway's own writes reach that cache: a write forgets the ids it may have made stale.
 */
import { unwrap } from "../../kernel/outcome";
import type { V2Request } from "../passthrough";
import { Problem } from "../../kernel/problem";
import { asHolder } from "../../kernel/stubs";
import type { CallTrace } from "../../upstream/client";
import {
  lookupSearch,
  type CodeDeps,
  type CodeKey,
  type LookupAnswer,
  type Target,
} from "./code-refs";
import { getFilteredList } from "./filtered-list";

/**
 * The tenant's code cache and the lookup GET, for `r`'s caller.
 *
 * @param r the caller's request: its tenant, gateway key, deadline and environment
 * @param trace the caller's trace: each lookup is one more upstream call in it
 * @returns what `resolveSites` needs
 * @example await resolveSites(sites, codeDeps(r, trace))
 */
export function codeDeps(r: V2Request, trace: CallTrace): CodeDeps {
  return {
    recall: async (keys) => unwrap(await asHolder(r.env, r.caller, (f) => f.codeIds(keys))),
    remember: async (found) => {
      unwrap(await asHolder(r.env, r.caller, (f) => f.rememberCodeIds(found)));
    },
    lookup: (target, codes) => lookup(r, trace, target, codes),
  };
}

/**
 * Forgets `keys`: a write that used them was refused in a way that says the record may be gone.
 *
 * @example await forgetCodes(r, [{ kind: "Department", code: "avd10" }])
 */
export async function forgetCodes(r: V2Request, keys: CodeKey[]): Promise<void> {
  unwrap(await asHolder(r.env, r.caller, (f) => f.forgetCodeIds(keys)));
}

/** One lookup GET, sent like any call of the caller's (its permit, its token, its deadline). */
async function lookup(
  r: V2Request,
  trace: CallTrace,
  target: Target,
  codes: string[],
): Promise<LookupAnswer> {
  const list = await getFilteredList(r, trace, target.list, lookupSearch(target, codes));
  switch (list.kind) {
    case "rows":
      return { ok: true, rows: list.rows };
    case "refused":
      return { ok: false, response: list.response };
    case "unreadable":
      if (list.why === "too-large")
        throw new Problem(
          "upstream-failed",
          `The accounting API answered a lookup of ${target.list} with a list too large to read.`,
        );
      throw notAList(target);
    case "broken":
      // A body that broke off while read is as unusable as one that is not a list.
      throw notAList(target);
  }
}

function notAList(target: Target): Problem {
  return new Problem(
    "upstream-failed",
    `The accounting API answered a lookup of ${target.list} with something other than a list.`,
  );
}
