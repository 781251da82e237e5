/**
 * @module
 * Whether a `/v2` call is an operation of API v2, from the catalog, before anything is sent.
 * See docs/design/v2-passthrough.md.
 */
import { matchOperation } from "../../shared/v2/catalog";
import { log } from "../kernel/log";
import { Problem } from "../kernel/problem";
import type { Lane } from "../upstream/client";
import { extraMethodsAt, parseExtraOperations, type ExtraOperations } from "./extra-operations";
import { nearestPath } from "./suggest";

/** The header with which a caller lets an uncataloged call through. */
export const UNCATALOGED_HEADER = "X-Ledgergate-Uncataloged";
const PASS = "pass";

/**
 * The offboarding call, known although not in the shared catalog: the sandbox's catalog walk calls
 * every operation there, and this one would remove the walking integration.
 */
const KNOWN_BEYOND_CATALOG = parseExtraOperations("DELETE /Offboarding/RemoveIntegration");

/**
 * Throws a 404 or 405 unless `method path` is in the catalog, the operator's list, or let through.
 * An MCP tool's call (`lane` "assistant") is told only what its assistant can do: the path as the
 * tool takes it (no `/v2`), and no header, since an assistant passes a tool's arguments, never
 * headers.
 *
 * @example admitOperation("GET", "/Custmers", headers, config.v2ExtraOperations) // throws a 404
 */
export function admitOperation(
  method: string,
  path: string,
  headers: Headers,
  extra: ExtraOperations,
  lane: Lane = "caller",
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
  const tool = lane === "assistant";
  const root = tool ? "" : "/v2";
  const call = `${method} ${root}${path}`;
  const letThrough = tool
    ? `Find the operation with search_operations. If the API has it and the gateway's catalog does not list it yet, the gateway's operator can add "${method} ${path}" to V2_EXTRA_OPERATIONS.`
    : `If the API has this operation and the gateway's catalog does not list it yet, send ${UNCATALOGED_HEADER}: ${PASS}, or ask the operator to add "${method} ${path}" to V2_EXTRA_OPERATIONS.`;
  if (allow.length > 0)
    throw new Problem(
      "method-not-allowed",
      `${call} is not an operation of API v2 the gateway knows: this path takes ${allow.join(", ")}. Nothing was sent to the API. ${letThrough}`,
      { headers: { allow: allow.join(", ") } },
    );
  const near = nearestPath(path);
  throw new Problem(
    "not-found",
    `${call} is not an operation of API v2 the gateway knows. ${near ? `Did you mean ${root}${near}? ` : ""}Nothing was sent to the API. ${letThrough}`,
  );
}

/** Whether the caller let the call through; a 400 for any value but `pass`. */
function passHeader(headers: Headers): boolean {
  const value = headers.get(UNCATALOGED_HEADER);
  if (value === null) return false;
  if (value.trim().toLowerCase() === PASS) return true;
  throw new Problem(
    "bad-request",
    `${UNCATALOGED_HEADER} takes one value, "${PASS}", to send a call the gateway's catalog does not list; leave it out otherwise.`,
  );
}
