/**
 * @module
 * The client's chart of accounts and VAT codes, read for the operator (the order mapping's check,
 * `mapping-check.ts`) through the tenant's reference cache (`v2/tenant/reference-cache.ts`):
 * the entries are filed under the same keys a gateway key's `GET /v2/GeneralLedgerAccounts` and
 * `GET /v2/VatCodes` use, so either kind of read fills the cache for the other, and a write to
 * either resource through `/v2` forgets them. A miss is one call through the one upstream client,
 * as the tenant (its current registration, like offboarding), with a permit of the governor, and
 * a row of the tenant's request log (caller `console`, id `mapping-check`).
 */
import type { z } from "zod";
import { readConfig, type Bindings } from "../kernel/config";
import { unwrap } from "../kernel/outcome";
import { Problem } from "../kernel/problem";
import { API_DEFAULT_PAGE_SIZE, morePages, readPagination } from "../v2/shaping/all-pages";
import { KEPT_HEADERS, MAX_REFERENCE_ENTRY_BYTES, resourceOf } from "../v2/shaping/reference-cache";
import { capture, type StoredAnswer } from "../v2/shaping/stored-answer";
import { asOperator, parseTenantName, type TenantName } from "../kernel/stubs";
import { loggedUpstream } from "../request-log/upstream";
import { ChartAccountReply, VatCodeReply } from "./replies";

/**
 * How long one read of the books may take, ms, a wait for a permit included: the operator is
 * waiting at a form, and a save that cannot check is refused, not queued.
 */
const BOOKS_READ_DEADLINE_MS = 10_000;
/** The reads, as paths (their cache keys: no query, so a `/v2` caller's plain read shares them). */
const CHART = "/GeneralLedgerAccounts";
const VAT_CODES = "/VatCodes";

/** What the check knows of the books. */
export interface Books {
  chart: ChartAccountReply[];
  /**
   * False when the chart has more than the one page read (more than 5,000 accounts): an account
   * not found may then be on a later page, so its absence proves nothing.
   */
  chartComplete: boolean;
  /** The VAT codes, or null when they were not asked for. */
  vatCodes: VatCodeReply[] | null;
}

/**
 * Reads the chart, and the VAT codes when `withVatCodes`, for the tenant `name`: each from the
 * cache, or upstream at most once (and kept).
 *
 * @throws Problem `not-found` for no such tenant; `unavailable` when the environment has no keys
 *   or the API answers 503; `upstream-failed`, `upstream-timeout` or `credentials-rejected` when
 *   the API cannot be read. Nothing has changed then.
 * @example const { chart } = await readBooks(env, "demo:acme", false);
 */
export async function readBooks(
  env: Bindings,
  name: TenantName,
  withVatCodes: boolean,
): Promise<Books> {
  const parsed = parseTenantName(name);
  if (!parsed.ok) throw new Problem("not-found", "No such tenant.");
  const config = readConfig(env).environments[parsed.value.environment];
  // One round trip: the registration (the tenant exists) and what the cache holds.
  const [registration, chartRead, vatRead] = await asOperator(env, name, (face) =>
    Promise.all([
      face.registrationId(),
      face.referenceRead({ key: CHART, resource: resourceOf(CHART), refresh: false }),
      withVatCodes
        ? face.referenceRead({ key: VAT_CODES, resource: resourceOf(VAT_CODES), refresh: false })
        : null,
    ]),
  );
  const registrationId = unwrap(registration);
  if (!config.ok) throw new Problem("unavailable", config.detail);
  const read = async (path: string, cached: NonNullable<typeof vatRead>) => {
    const r = unwrap(cached);
    if (r.kind === "hit") return r.answer;
    const res = await loggedUpstream(
      {
        env,
        environment: parsed.value.environment,
        config: config.config,
        tenant: name,
        credential: { registration: registrationId },
      },
      {
        method: "GET",
        path,
        search: "",
        headers: new Headers({ accept: "application/json", "user-agent": "ledgergate" }),
        body: null,
        deadline: Date.now() + BOOKS_READ_DEADLINE_MS,
      },
      { kind: "console", id: "mapping-check" },
    );
    if (res.status !== 200 && res.status !== 204) throw unreadable(path, res);
    const kept = await capture(res, KEPT_HEADERS, MAX_REFERENCE_ENTRY_BYTES);
    if (res.status === 200 && kept.complete)
      await asOperator(env, name, (face) =>
        face.referenceKeep({
          key: path,
          resource: resourceOf(path),
          generation: r.generation,
          answer: kept.answer,
        }),
      );
    return kept.complete
      ? kept.answer
      : { ...kept.answer, body: await kept.response.arrayBuffer() };
  };
  // Both reads run to the end before either's failure is thrown: a chart read (and kept) while the
  // VAT codes failed spares the next save that call, which `Promise.all` would leave to chance.
  const [chartDone, vatDone] = await Promise.allSettled([
    read(CHART, chartRead),
    vatRead ? read(VAT_CODES, vatRead) : null,
  ]);
  if (chartDone.status === "rejected") throw chartDone.reason;
  if (vatDone.status === "rejected") throw vatDone.reason;
  const [chart, vat] = [chartDone.value, vatDone.value];
  const accounts = rows(CHART, chart, ChartAccountReply);
  return {
    chart: accounts,
    chartComplete: !morePages(
      accounts.length,
      API_DEFAULT_PAGE_SIZE,
      1,
      readPagination(chart.headers["x-pagination"] ?? null),
    ),
    vatCodes: vat ? rows(VAT_CODES, vat, VatCodeReply) : null,
  };
}

/** The API's answer when it is not a list: 503 as unavailable (with its Retry-After), else 502. */
function unreadable(path: string, res: Response): Problem {
  void res.body?.cancel();
  const what = `The accounting API answered HTTP ${res.status} to GET ${path}, so the mapping could not be checked against the client's books and was not stored.`;
  const retry = res.headers.get("retry-after");
  return res.status === 503
    ? new Problem("unavailable", `${what} Try again shortly.`, {
        headers: retry ? { "retry-after": retry } : {},
      })
    : new Problem("upstream-failed", what);
}

/** The rows of a list answer (none for 204 or an empty body). */
function rows<T extends z.ZodType>(path: string, answer: StoredAnswer, schema: T): z.output<T>[] {
  if (answer.status === 204 || !answer.body || answer.body.byteLength === 0) return [];
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(answer.body));
  } catch {
    body = undefined;
  }
  const parsed = schema.array().safeParse(body);
  if (!parsed.success)
    throw new Problem(
      "upstream-failed",
      `The accounting API answered GET ${path} with a list the gateway cannot read, so the mapping was not checked and not stored.`,
    );
  return parsed.data;
}
