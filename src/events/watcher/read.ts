/**
 * @module
 * One page of a poll, read from the API as the tenant (its token, through the watcher's face of
 * its object) on the watcher's lane: a permit when its turn comes within the reader's `turnWaitMs`
 * (`cadence.ts`), and a `429` taken as the answer, never waited out (the watcher backs off first).
 * Each call is a row of the tenant's request log, caller `watcher` (its own, smaller bound, so
 * polling never crowds out the callers' rows).
 */
import { readCapped } from "../../../shared/bytes";
import { readConfig, type Bindings, type Environment } from "../../kernel/config";
import { Problem } from "../../kernel/problem";
import { loggedUpstream } from "../../request-log/upstream";
import type { TenantName } from "../../kernel/stubs";
import { retryAfterSeconds } from "../../upstream/transport";
import type { Page } from "./poll";
import { filterOf, POLLS, type PlannedPoll } from "./polls";
import { filterTime } from "./times";

/** A page's answer time, ms, after its turn's wait: 500 rows from the API. */
const READ_DEADLINE_MS = 20_000;
/** The largest page answer read, bytes: 500 rows of a few kB each, with room. */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;

/** Whose poll: the tenant, its environment and the books it reads. */
export interface PollReader {
  env: Bindings;
  environment: Environment;
  tenant: TenantName;
  books: string;
  /**
   * How long a poll waits in the watchers' lane for its turn, ms; past that it stops its cycle
   * and asks again after the governor's Retry-After.
   */
  turnWaitMs: number;
}

/**
 * Reads page `page` of `p`'s rows changed after `since` (epoch ms), ordered by the change.
 *
 * @param pageSize rows a page asks for
 */
export async function readPage(
  who: PollReader,
  p: PlannedPoll,
  since: number,
  page: number,
  pageSize: number,
): Promise<Page> {
  const config = readConfig(who.env).environments[who.environment];
  if (!config.ok) return { kind: "stop", why: "failed" };
  const filter = filterOf(p);
  const query = new URLSearchParams({
    [filter.param]: filterTime(since),
    OrderBy: `${filter.field} asc`,
    PageSize: String(pageSize),
  });
  if (page > 1) query.set("PageNumber", String(page));
  let res: Response;
  try {
    res = await loggedUpstream(
      {
        env: who.env,
        environment: who.environment,
        config: config.config,
        tenant: who.tenant,
        credential: { watcher: who.books },
        lane: "watcher",
      },
      {
        method: "GET",
        path: POLLS[p.poll].path,
        search: `?${query}`,
        headers: new Headers({ accept: "application/json", "user-agent": "ledgergate-watcher" }),
        body: null,
        deadline: Date.now() + who.turnWaitMs + READ_DEADLINE_MS,
        maxPermitWaitMs: who.turnWaitMs,
      },
      { kind: "watcher", id: p.poll },
    );
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    // No permit in time (the budget is the callers'): again after the governor's Retry-After. No
    // token, a timeout: next cycle.
    const retryAfter = e.extra.headers?.["retry-after"];
    if (e.type === "unavailable" && retryAfter)
      return { kind: "stop", why: "no-permit", retryAfterSeconds: retryAfterSeconds(retryAfter) };
    return { kind: "stop", why: "failed" };
  }
  if (res.status === 204) return { kind: "rows", rows: [] };
  if (res.status === 429) {
    await res.body?.cancel();
    return {
      kind: "stop",
      why: "throttled",
      retryAfterSeconds: retryAfterSeconds(res.headers.get("retry-after")),
    };
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    return { kind: "stop", why: "failed" };
  }
  const bytes = await readCapped(res.body, MAX_PAGE_BYTES);
  if (!bytes) return { kind: "stop", why: "failed" };
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const list = Array.isArray(value) ? value : [];
    const rows = list.filter(
      (v): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v),
    );
    return { kind: "rows", rows };
  } catch {
    return { kind: "stop", why: "failed" };
  }
}
