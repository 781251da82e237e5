import type { AccessCache } from "../upstream/access-cache";
import type { UpstreamCaller } from "../upstream/client";
import type { Holder } from "./app";
import type { Bindings, EnvironmentConfig } from "./config";

export interface HolderCall {
  env: Bindings;
  caller: Holder;
  config: EnvironmentConfig;
  accessCache?: AccessCache;
}

/** The one upstream caller of `r`'s holder: it presents the key or grant, rechecked per call. */
export function holderCaller(r: HolderCall): UpstreamCaller {
  return {
    env: r.env,
    environment: r.caller.environment,
    config: r.config,
    tenant: r.caller.tenant,
    credential: "key" in r.caller ? { gatewayKey: r.caller.key } : { grant: r.caller.grant },
    accessCache: r.accessCache,
  };
}
