/**
 * @module
 * What one tenant's polls need from the world (`PollIo`): page reads and the event log.
 */
import type { Bindings } from "../../kernel/config";
import { eventsStub, parseTenantName, type TenantName } from "../../kernel/stubs";
import { PAGE_SIZE, type PollIo } from "./poll";
import { readPage, type PollReader } from "./read";

/**
 * The I/O of `tenant`'s polls of `books`, each waiting at most `turnWaitMs` for its turn.
 *
 * @throws Error when `tenant` is not a tenant's name
 */
export function pollIo(
  env: Bindings,
  tenant: TenantName,
  books: string,
  turnWaitMs: number,
): PollIo {
  const who = readerOf(env, tenant, books, turnWaitMs);
  return {
    read: (p, since, page) => readPage(who, p, since, page, PAGE_SIZE),
    record: recorder(env, tenant),
    now: () => Date.now(),
  };
}

/** Records drafts in `tenant`'s event log; answers the keys it had not seen before. */
export function recorder(env: Bindings, tenant: TenantName): PollIo["record"] {
  return async (drafts) => {
    if (drafts.length === 0) return [];
    const recorded = await eventsStub(env, tenant).record(drafts);
    if (!recorded.ok) throw new Error(recorded.error.detail);
    return recorded.value.keys;
  };
}

/**
 * Who reads as `tenant`'s watcher, for `books`.
 *
 * @throws Error when `tenant` is not a tenant's name
 */
export function readerOf(
  env: Bindings,
  tenant: TenantName,
  books: string,
  turnWaitMs: number,
): PollReader {
  const parsed = parseTenantName(tenant);
  if (!parsed.ok) throw new Error(parsed.error);
  return { env, environment: parsed.value.environment, tenant, books, turnWaitMs };
}
