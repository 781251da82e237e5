/**
 * @module
 * The answer of `GET /events/endpoints`, key's and operator's alike: endpoints and the watcher.
 */
import type { Bindings } from "../../kernel/config";
import { unwrap } from "../../kernel/outcome";
import { eventsStub, watcherStub, type TenantName } from "../../kernel/stubs";
import type { WatcherView } from "./view";

/**
 * @example const answer = await endpointsAndWatcher(c.env, c.var.caller.tenant);
 */
export async function endpointsAndWatcher(env: Bindings, tenant: TenantName) {
  const [endpoints, watcher] = await Promise.all([
    eventsStub(env, tenant).listEndpoints(),
    watcherStub(env, tenant).status() as Promise<WatcherView>,
  ]);
  return { endpoints: unwrap(endpoints), watcher };
}
