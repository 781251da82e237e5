/**
 * @module
 * A holder's call to the API: the one mapping from the `Holder` a request authenticated as (a
 * gateway key or an assistant's OAuth grant) to the upstream client's `UpstreamCaller`, so every
 * call made in a holder's name presents the same credential, whoever makes it.
 */
import type { AccessCache } from "../upstream/access-cache";
import type { UpstreamCaller } from "../upstream/client";
import type { Holder } from "./app";
import type { Bindings, EnvironmentConfig } from "./config";

/** What a call in a holder's name needs (a `/v2` request, `v2/passthrough.ts`, has all of it). */
export interface HolderCall {
  env: Bindings;
  caller: Holder;
  config: EnvironmentConfig;
  accessCache?: AccessCache;
}

/**
 * The upstream caller of `r`'s holder, in its environment and tenant: a gateway key is presented as
 * `gatewayKey`, a grant as `grant`, so the tenant's object checks the credential again on each call
 * (a key retired or a grant revoked meanwhile stops it). No lane: the caller's own, unless the call
 * site sets one.
 */
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
