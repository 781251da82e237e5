/**
 * @module
 * Whether a `/v2` call is an operation of API v2, decided by the gateway from its catalog
 * (`shared/v2/catalog.ts`) before anything is sent. A path the catalog does not know is the
 * gateway's own `404`, a method the path does not take its `405` with `Allow`: sending them would
 * spend a permit of the environment's shared budget on an answer known in advance, and the API's
 * own 404 names its root (`/Demo/v2/...`) and carries no request id.
 *
 * It runs after the gateway key is authenticated (`v2/routes.ts`), so a caller without a valid key
 * learns nothing of the catalog. Since the live API grows ahead of the catalog, an operation it
 * does not list yet is let through, unchanged and unchecked, when the operator lists it in
 * `V2_EXTRA_OPERATIONS` (`v2-extra-operations.ts`) or the caller sends
 * `X-Ledgergate-Uncataloged: pass` (the caller's own budget, the caller's own risk of a typo).
 */
import { matchOperation } from "../../shared/v2/catalog";
import { log } from "../kernel/log";
import { Problem } from "../kernel/problem";
import { extraMethodsAt, parseExtraOperations, type ExtraOperations } from "./extra-operations";
import { nearestPath } from "./suggest";

/** The header with which a caller lets an uncataloged call through. */
export const UNCATALOGED_HEADER = "X-Ledgergate-Uncataloged";
/** Its one accepted value. */
const PASS = "pass";

/**
 * Operations of the live API that the catalog does not list and the gateway knows anyway: the
 * offboarding call the gateway itself makes (`onboarding/offboard.ts`), which a caller may make
 * through `/v2` too. It stays out of the shared catalog because the sandbox's catalog walk
 * (`test/sandbox/catalog.test.ts`) calls every operation there, and this one removes the walking
 * integration.
 */
const KNOWN_BEYOND_CATALOG = parseExtraOperations("DELETE /Offboarding/RemoveIntegration");

/**
 * Throws the gateway's problem unless `method path` may be sent: a catalog operation, one the
 * operator lists, or any call whose caller sent `X-Ledgergate-Uncataloged: pass`.
 *
 * @param method upper case
 * @param path below the v2 root, as `v2Path` checked it
 * @param headers the caller's headers
 * @param extra the operator's `V2_EXTRA_OPERATIONS`
 * @example admitOperation("GET", "/Custmers", headers, config.v2ExtraOperations) // throws a 404
 */
export function admitOperation(
  method: string,
  path: string,
  headers: Headers,
  extra: ExtraOperations,
): void {
  const pass = passHeader(headers);
  const match = matchOperation(method, path);
  if (match.kind === "operation" || pass) return;
  const extraMethods = [
    ...extraMethodsAt(KNOWN_BEYOND_CATALOG, path),
    ...extraMethodsAt(extra, path),
  ];
  if (extraMethods.includes(method)) return;
  if (extra.ignored.length > 0)
    log.warn("v2-extra-operations-ignored", { ignored: extra.ignored.join(", ") });
  const allow = [
    ...new Set([...(match.kind === "method-not-allowed" ? match.allow : []), ...extraMethods]),
  ];
  const call = `${method} /v2${path}`;
  const letThrough = `If the API has this operation and the gateway's catalog does not list it yet, send ${UNCATALOGED_HEADER}: ${PASS}, or ask the operator to add "${method} ${path}" to V2_EXTRA_OPERATIONS.`;
  if (allow.length > 0)
    throw new Problem(
      "method-not-allowed",
      `${call} is not an operation of API v2 the gateway knows: this path takes ${allow.join(", ")}. Nothing was sent to the API. ${letThrough}`,
      { headers: { allow: allow.join(", ") } },
    );
  const near = nearestPath(path);
  throw new Problem(
    "not-found",
    `${call} is not an operation of API v2 the gateway knows. ${near ? `Did you mean /v2${near}? ` : ""}Nothing was sent to the API. ${letThrough}`,
  );
}

/** Whether the caller let the call through; throws a 400 for any value but `pass`. */
function passHeader(headers: Headers): boolean {
  const value = headers.get(UNCATALOGED_HEADER);
  if (value === null) return false;
  if (value.trim().toLowerCase() === PASS) return true;
  throw new Problem(
    "bad-request",
    `${UNCATALOGED_HEADER} takes one value, "${PASS}", to send a call the gateway's catalog does not list; leave it out otherwise.`,
  );
}
