/**
 * @module
 * The one place that addresses Durable Objects. Tenant names are built and parsed here only; every
 * caller that reaches a tenant's object comes through `tenantStub`, with a name derived from an
 * authenticated gateway key, a verified webhook route, an operator's path, or a run the tenant's
 * own object started, and then through the face for its kind: `asKeyHolder`, `asGrantHolder` (and
 * `asHolder` for either), `asRun` (and `orderRunPort`), `asOperator` (see `tenant/tenant-object.ts`
 * for why faces). Each call on a face is
 * pipelined with the call that hands it out, so it costs the one round trip a direct call did.
 * The tenant's events object (`eventsStub`) is reached by the same names, from the same
 * authenticated inputs, and by the queue consumer with a message that object itself queued; its
 * watcher (`watcherStub`) by the name of the events object that tells it what to watch.
 */
import { z } from "zod";
import type { Holder } from "./app";
import type { Bindings } from "./config";
import { Environment } from "./config";
import type { OrderRunPort } from "../orders/port";
import type { PayoutRunPort } from "../payouts/port";
import type { Result } from "./result";

/**
 * A client slug: lowercase letters, digits and dashes (no underscore: it separates a gateway key's
 * parts).
 */
export const ClientSlug = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    "must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit",
  );

/** `demo:acme`: the unit of isolation. */
export type TenantName = `${Environment}:${string}`;

/** The tenant name of a client in an environment. */
export function tenantName(environment: Environment, client: string): TenantName {
  return `${environment}:${client}`;
}

/**
 * The parts of a tenant name, or why it is not one.
 *
 * @example parseTenantName("demo:acme") // { ok: true, value: { environment: "demo", client: "acme"
 * } }
 */
export function parseTenantName(
  name: string,
): Result<{ environment: Environment; client: string }, string> {
  const [environment, client, ...rest] = name.split(":");
  const e = Environment.safeParse(environment);
  const c = ClientSlug.safeParse(client);
  if (!e.success || !c.success || rest.length > 0)
    return { ok: false, error: `not a tenant name: ${JSON.stringify(name)}` };
  return { ok: true, value: { environment: e.data, client: c.data } };
}

/**
 * Where the objects every API call waits on are created: West Europe, near the API. Its gateway
 * runs in Azure's West Europe region (its hosts are named `…-eurw`), and each call takes a permit
 * from the environment's `RateGovernor` (and, cold, a token from its `Tenant`) before it goes
 * there; an object created wherever its first caller happened to be (an operator's first
 * registration from another continent, say) would put that detour on every call after it. A hint
 * applies only when an object is first created (Cloudflare then keeps it where it is), so it is
 * given on every stub; locally it changes nothing. docs/deploy.md says what a caller far from
 * Europe pays.
 */
export const NEAR_THE_API: DurableObjectNamespaceGetDurableObjectOptions = { locationHint: "weur" };

/** What reaching a tenant's object takes: only the namespace binding. */
export type TenantBinding = Pick<Bindings, "TENANT">;

/**
 * The tenant's object: its webhook intake and `invalidate`; everything else is on the faces below.
 */
export function tenantStub(env: TenantBinding, name: TenantName) {
  return env.TENANT.get(env.TENANT.idFromName(name), NEAR_THE_API);
}

type TenantStub = ReturnType<typeof tenantStub>;
/** The face of a gateway key's holder, as a promise to call methods on (`Tenant.forKey`). */
export type KeyHolderStub = ReturnType<TenantStub["forKey"]>;
/** The face of an OAuth grant's holder, to call methods on (`Tenant.forGrant`). */
export type GrantHolderStub = ReturnType<TenantStub["forGrant"]>;
/** What a key holder's and a grant holder's faces both answer (`tenant/holder-ops.ts`). */
export type HolderStub = KeyHolderStub | GrantHolderStub;
/** The face of an order run, as a promise to call methods on (`Tenant.forRun`). */
export type RunStub = ReturnType<TenantStub["forRun"]>;
/** The request log's face, as a promise to call methods on (`Tenant.forCallLog`). */
export type CallLogStub = ReturnType<TenantStub["forCallLog"]>;
/** The watcher's face, as a promise to call methods on (`Tenant.forWatcher`). */
export type WatcherStub = ReturnType<TenantStub["forWatcher"]>;
/** The operator's face, as a promise to call methods on (`Tenant.forOperator`). */
export type OperatorStub = ReturnType<TenantStub["forOperator"]>;

/**
 * Makes `call` on a face that is still a promise, so the call goes with the one that hands the face
 * out (promise pipelining: one round trip, as a direct call on the object took), then disposes the
 * face: the runtime keeps it alive for the caller until then, and reports one left to the garbage
 * collector as a leak.
 */
async function onFace<F extends object, T>(face: F, call: (face: F) => T): Promise<Awaited<T>> {
  try {
    return await call(face);
  } finally {
    // An RPC call's promise is disposable (workerd's `JsRpcPromise`), though its type says not.
    (face as Partial<Disposable>)[Symbol.dispose]?.();
  }
}

/**
 * `call` on the face of `caller.tenant` for the holder of `caller.key`; its methods answer
 * `unauthorized` when the key does not check out.
 *
 * @example unwrap(await asKeyHolder(env, caller, (face) => face.orderRuns(null, 50)))
 */
export function asKeyHolder<T>(
  env: TenantBinding,
  caller: { tenant: TenantName; key: string },
  call: (face: KeyHolderStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, caller.tenant).forKey(caller.key), call);
}

/**
 * `call` on the face of `caller.tenant` for the holder of the OAuth grant `caller.grant`; its
 * methods answer `unauthorized` when the grant is not live.
 */
export function asGrantHolder<T>(
  env: TenantBinding,
  caller: { tenant: TenantName; grant: string },
  call: (face: GrantHolderStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, caller.tenant).forGrant(caller.grant), call);
}

/**
 * `call` on the face of whatever authenticated `holder`, a gateway key or an OAuth grant: the
 * `/v2` pipeline reaches the tenant's state through this, so a call under a grant goes exactly
 * where the same call under a key goes.
 *
 * @example unwrap(await asHolder(env, r.caller, (face) => face.codeIds(keys)))
 */
export function asHolder<T>(
  env: TenantBinding,
  holder: Holder,
  call: (face: HolderStub) => T,
): Promise<Awaited<T>> {
  return "key" in holder ? asKeyHolder(env, holder, call) : asGrantHolder(env, holder, call);
}

/**
 * `call` on the face of `name` for an order run started under `registration`: inert once that
 * registration is gone.
 */
export function asRun<T>(
  env: TenantBinding,
  name: TenantName,
  registration: string,
  call: (face: RunStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, name).forRun(registration), call);
}

/** `call` on the face `take` hands out of `name`'s object, for a face that takes no credential. */
const onUnchecked =
  <F extends object>(take: (stub: TenantStub) => F) =>
  <T>(env: TenantBinding, name: TenantName, call: (face: F) => T): Promise<Awaited<T>> =>
    onFace(take(tenantStub(env, name)), call);

/**
 * `call` on the operator's face of `name`. For callers behind the admin token, the console's
 * session or onboarding's single-use state only: the object itself checks nothing (see
 * `tenant/tenant-object.ts`).
 *
 * @example const d = await asOperator(env, "demo:acme", (face) => face.describe())
 */
export const asOperator = onUnchecked<OperatorStub>((stub) => stub.forOperator());

/**
 * `call` on the watcher's face of `name`: a token for the books it names. For the tenant's
 * `Watcher` only (`events/watcher/watcher-object.ts`), which is reached by the tenant's name alone.
 */
export const asWatcher = onUnchecked<WatcherStub>((stub) => stub.forWatcher());

/**
 * `call` on the request log's face of `name`. For the gateway's own code after it authenticated
 * the call (see `request-log/call-log-face.ts`).
 */
export const toCallLog = onUnchecked<CallLogStub>((stub) => stub.forCallLog());

/**
 * A run's port of the tenant's object: each of `methods` (every one of the port's, as the
 * compiler checks the record's keys) calls the run's face, taken anew for each call, so nothing
 * held here can outlive the registration.
 */
function runPort<Port extends object>(
  methods: Record<keyof Port, true>,
): (env: TenantBinding, name: TenantName, registration: string) => Port {
  return (env, name, registration) =>
    Object.fromEntries(
      Object.keys(methods).map((m) => [
        m,
        (...args: unknown[]) =>
          asRun(env, name, registration, (face) =>
            // The run's face implements both ports (`RunHolder`): `m` is one of its methods.
            (face as unknown as Record<string, (...a: unknown[]) => unknown>)[m]?.(...args),
          ),
      ]),
    ) as Port;
}

/** The tenant's object as an order run sees it (`orders/port.ts`). */
export const orderRunPort = runPort<OrderRunPort>({
  runInput: true,
  runReport: true,
  known: true,
  learn: true,
});

/** The tenant's object as a payout run sees it (`payouts/port.ts`). */
export const payoutRunPort = runPort<PayoutRunPort>({
  payoutTask: true,
  payoutReport: true,
  knownAccounts: true,
  learnAccounts: true,
  payoutRead: true,
  stripeKey: true,
});

/**
 * The tenant's events object (`events/events-object.ts`): endpoints, event log, outbox. Its name is
 * the tenant's, from an authenticated gateway key, an operator's path, an order run's tenant, or a
 * delivery message the object queued itself; it checks no credential of its own.
 */
export function eventsStub(env: Pick<Bindings, "EVENTS">, name: TenantName) {
  // Beside the tenant's object: what it records comes from the tenant's calls and runs.
  return env.EVENTS.get(env.EVENTS.idFromName(name), NEAR_THE_API);
}

/**
 * The tenant's watcher (`events/watcher/watcher-object.ts`): it polls the API for changes made
 * elsewhere. Its name is the tenant's, from the same authenticated inputs as `eventsStub`'s; the
 * tenant's events object tells it what to watch.
 */
export function watcherStub(env: Pick<Bindings, "WATCHER">, name: TenantName) {
  // Beside the tenant's object and the governor: each poll takes a token and a permit.
  return env.WATCHER.get(env.WATCHER.idFromName(name), NEAR_THE_API);
}

/**
 * The watchers' roster of an environment (`events/watcher/watch-roster.ts`): who is watched and how
 * often, one per subscription key, as the governor is.
 */
export function rosterStub(env: Pick<Bindings, "WATCH_ROSTER">, environment: Environment) {
  return env.WATCH_ROSTER.get(env.WATCH_ROSTER.idFromName(environment), NEAR_THE_API);
}

/** The rate governor of an environment (one per subscription key). */
export function governorStub(env: Pick<Bindings, "RATE_GOVERNOR">, environment: Environment) {
  return env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName(environment), NEAR_THE_API);
}

/** The directory of tenant names. */
export function directoryStub(env: Bindings) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName("tenants"));
}
