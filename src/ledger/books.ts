/**
 * @module The client's chart of accounts and VAT codes, for the order mapping's check, through
 * the tenant's reference cache under the keys a `/v2` read uses (so either fills it for the
 * other). A miss is one logged call as the tenant, under a permit of the governor.
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

/** A read's time, a permit's wait included, ms: the operator waits at a form; refuse, not queue. */
const BOOKS_READ_DEADLINE_MS = 10_000;
/** Paths and cache keys: no query, so a `/v2` caller's plain read shares them. */
const CHART = "/GeneralLedgerAccounts";
const VAT_CODES = "/VatCodes";

export interface Books {
  chart: ChartAccountReply[];
  /** False beyond the one page read: an account not found then proves nothing. */
  chartComplete: boolean;
  vatCodes: VatCodeReply[] | null;
}

/**
 * The chart, and the VAT codes when `withVatCodes`: each from the cache, or read once and kept.
 * @throws Problem `not-found`, `unavailable` (no keys, or a 503), or the API's failure
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
  // One round trip: the registration and what the cache holds.
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
  // Both run to the end before a failure is thrown: a chart kept spares the next save a call.
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

/** 503 as unavailable (with its Retry-After), else 502. */
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
