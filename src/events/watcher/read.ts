/**
 * @module
 * One page of a poll, read as the tenant on the governor's watcher lane within its `turnWaitMs`; a
 * `429` is the answer, never waited out. Each call is a request-log row, caller `watcher`.
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

/** A page's answer time, ms, after its turn's wait. */
const READ_DEADLINE_MS = 20_000;
/** The largest page answer read, bytes: 500 rows of a few kB each, with room. */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;

export interface PollReader {
  env: Bindings;
  environment: Environment;
  tenant: TenantName;
  books: string;
  turnWaitMs: number;
}

/** Reads page `page` of `p`'s rows changed after `since` (epoch ms), ordered by the change. */
export async function readPage(
  who: PollReader,
  p: PlannedPoll,
  since: number,
  page: number,
  pageSize: number,
): Promise<Page> {
  const filter = filterOf(p);
  const query = new URLSearchParams({
    [filter.param]: filterTime(since),
    OrderBy: `${filter.field} asc`,
    PageSize: String(pageSize),
  });
  if (page > 1) query.set("PageNumber", String(page));
  const read = await readJson(who, POLLS[p.poll].path, `?${query}`, p.poll);
  if (read.kind === "stop") return read;
  const list = Array.isArray(read.value) ? read.value : [];
  const rows = list.filter(
    (v): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v),
  );
  return { kind: "rows", rows };
}

/**
 * One GET of `path` as the tenant's watcher, its JSON answer (null for a 204), or why it stopped.
 * `id` names the read in the request log.
 */
export async function readJson(
  who: PollReader,
  path: string,
  search: string,
  id: string,
): Promise<{ kind: "json"; value: unknown } | Extract<Page, { kind: "stop" }>> {
  const config = readConfig(who.env).environments[who.environment];
  if (!config.ok) return { kind: "stop", why: "failed" };
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
        path,
        search,
        headers: new Headers({ accept: "application/json", "user-agent": "ledgergate-watcher" }),
        body: null,
        deadline: Date.now() + who.turnWaitMs + READ_DEADLINE_MS,
        maxPermitWaitMs: who.turnWaitMs,
      },
      { kind: "watcher", id },
    );
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    // No permit in time: again after the governor's Retry-After; no token, a timeout: next cycle.
    const retryAfter = e.extra.headers?.["retry-after"];
    if (e.type === "unavailable" && retryAfter)
      return { kind: "stop", why: "no-permit", retryAfterSeconds: retryAfterSeconds(retryAfter) };
    return { kind: "stop", why: "failed" };
  }
  if (res.status === 204) return { kind: "json", value: null };
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
    return { kind: "json", value: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch {
    return { kind: "stop", why: "failed" };
  }
}
