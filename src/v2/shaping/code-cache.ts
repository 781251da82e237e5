/**
 * @module
 * Codes for ids as one caller's request sees them: the tenant's cache of code→id pairs
 * (`v2/tenant/code-ids.ts`) and the lookup GETs.
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

/** Forgets `keys`: a write that used them was refused as if the record were gone. */
export async function forgetCodes(r: V2Request, keys: CodeKey[]): Promise<void> {
  unwrap(await asHolder(r.env, r.caller, (f) => f.forgetCodeIds(keys)));
}

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
      throw notAList(target);
  }
}

function notAList(target: Target): Problem {
  return new Problem(
    "upstream-failed",
    `The accounting API answered a lookup of ${target.list} with something other than a list.`,
  );
}
