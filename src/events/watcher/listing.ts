/**
 * @module
 * The answer of `GET /events/endpoints` (the tenant's key and the operator's path alike): the
 * tenant's endpoints, from its events object, and its watcher's view (`view.ts`), asked of both
 * objects at once.
 */
import type { Bindings } from "../../kernel/config";
import { unwrap } from "../../kernel/outcome";
import { eventsStub, watcherStub, type TenantName } from "../../kernel/stubs";
import type { WatcherView } from "./view";

/**
 * The endpoints of `tenant` (whose caller was authenticated) and what its watcher does.
 *
 * @example const answer = await endpointsAndWatcher(c.env, c.var.caller.tenant);
 */
export async function endpointsAndWatcher(env: Bindings, tenant: TenantName) {
  const [endpoints, watcher] = await Promise.all([
    eventsStub(env, tenant).listEndpoints(),
    watcherStub(env, tenant).status() as Promise<WatcherView>,
  ]);
  return { endpoints: unwrap(endpoints), watcher };
}
