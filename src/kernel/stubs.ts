/** @module The one place that addresses Durable Objects and builds tenant names. */
import { z } from "zod";
import type { Holder } from "./app";
import type { Bindings } from "./config";
import { Environment } from "./config";
import type { OrderRunPort } from "../orders/port";
import type { PayoutRunPort } from "../payouts/port";
import type { Result } from "./result";

/** A client slug: lowercase letters, digits and dashes (no underscore: it separates key parts). */
export const ClientSlug = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    "must be 1-63 lowercase letters, digits or dashes, starting with a letter or digit",
  );

/** `demo:acme`: the unit of isolation. */
export type TenantName = `${Environment}:${string}`;

export function tenantName(environment: Environment, client: string): TenantName {
  return `${environment}:${client}`;
}

/**
 * The parts of a tenant name, or why it is not one.
 * @example parseTenantName("demo:acme") // { ok: true, value: { environment: "demo", … } }
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

/** Objects start in West Europe, near the API; a hint counts only at creation (docs/deploy.md). */
export const NEAR_THE_API: DurableObjectNamespaceGetDurableObjectOptions = { locationHint: "weur" };

export type TenantBinding = Pick<Bindings, "TENANT">;

/** The tenant's object: its webhook intake and `invalidate`; everything else is on the faces. */
export function tenantStub(env: TenantBinding, name: TenantName) {
  return env.TENANT.get(env.TENANT.idFromName(name), NEAR_THE_API);
}

type TenantStub = ReturnType<typeof tenantStub>;
export type KeyHolderStub = ReturnType<TenantStub["forKey"]>;
export type GrantHolderStub = ReturnType<TenantStub["forGrant"]>;
export type HolderStub = KeyHolderStub | GrantHolderStub;
export type RunStub = ReturnType<TenantStub["forRun"]>;
export type CallLogStub = ReturnType<TenantStub["forCallLog"]>;
export type WatcherStub = ReturnType<TenantStub["forWatcher"]>;
export type OperatorStub = ReturnType<TenantStub["forOperator"]>;

/** `call` on a face still a promise (pipelined), then disposes it: one left to the GC is a leak. */
async function onFace<F extends object, T>(face: F, call: (face: F) => T): Promise<Awaited<T>> {
  try {
    return await call(face);
  } finally {
    // An RPC call's promise is disposable (workerd's `JsRpcPromise`), though its type says not.
    (face as Partial<Disposable>)[Symbol.dispose]?.();
  }
}

/**
 * `call` on the face of the holder of `caller.key`: `unauthorized` unless the key checks out.
 * @example unwrap(await asKeyHolder(env, caller, (face) => face.orderRuns(null, 50)))
 */
export function asKeyHolder<T>(
  env: TenantBinding,
  caller: { tenant: TenantName; key: string },
  call: (face: KeyHolderStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, caller.tenant).forKey(caller.key), call);
}

/** As `asKeyHolder`, for the holder of the OAuth grant `caller.grant`, while the grant is live. */
export function asGrantHolder<T>(
  env: TenantBinding,
  caller: { tenant: TenantName; grant: string },
  call: (face: GrantHolderStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, caller.tenant).forGrant(caller.grant), call);
}

/**
 * `call` on a key's or a grant's holder's face: both go exactly the same way.
 * @example unwrap(await asHolder(env, r.caller, (face) => face.codeIds(keys)))
 */
export function asHolder<T>(
  env: TenantBinding,
  holder: Holder,
  call: (face: HolderStub) => T,
): Promise<Awaited<T>> {
  return "key" in holder ? asKeyHolder(env, holder, call) : asGrantHolder(env, holder, call);
}

/** `call` on the face of an order run started under `registration`: inert once it is gone. */
export function asRun<T>(
  env: TenantBinding,
  name: TenantName,
  registration: string,
  call: (face: RunStub) => T,
): Promise<Awaited<T>> {
  return onFace(tenantStub(env, name).forRun(registration), call);
}

const onUnchecked =
  <F extends object>(take: (stub: TenantStub) => F) =>
  <T>(env: TenantBinding, name: TenantName, call: (face: F) => T): Promise<Awaited<T>> =>
    onFace(take(tenantStub(env, name)), call);

/**
 * `call` on the operator's face, which checks nothing: only behind the admin token, the console's
 * session or onboarding's state.
 * @example const d = await asOperator(env, "demo:acme", (face) => face.describe())
 */
export const asOperator = onUnchecked<OperatorStub>((stub) => stub.forOperator());

/** `call` on the watcher's face of `name`: for the tenant's `Watcher` only. */
export const asWatcher = onUnchecked<WatcherStub>((stub) => stub.forWatcher());

/** `call` on the request log's face of `name`, for the gateway's code after it authenticated. */
export const toCallLog = onUnchecked<CallLogStub>((stub) => stub.forCallLog());

/** A run's port: each method takes the run's face anew, so nothing outlives the registration. */
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

export const orderRunPort = runPort<OrderRunPort>({
  runInput: true,
  runReport: true,
  known: true,
  learn: true,
  delivery: true,
  settle: true,
});

export const payoutRunPort = runPort<PayoutRunPort>({
  payoutTask: true,
  payoutReport: true,
  knownAccounts: true,
  learnAccounts: true,
  payoutRead: true,
  stripeKey: true,
});

/** The tenant's events object; it checks no credential, so its name must come authenticated. */
export function eventsStub(env: Pick<Bindings, "EVENTS">, name: TenantName) {
  return env.EVENTS.get(env.EVENTS.idFromName(name), NEAR_THE_API);
}

export function watcherStub(env: Pick<Bindings, "WATCHER">, name: TenantName) {
  return env.WATCHER.get(env.WATCHER.idFromName(name), NEAR_THE_API);
}

/** The watchers' roster of an environment: one per subscription key, as the governor is. */
export function rosterStub(env: Pick<Bindings, "WATCH_ROSTER">, environment: Environment) {
  return env.WATCH_ROSTER.get(env.WATCH_ROSTER.idFromName(environment), NEAR_THE_API);
}

export function governorStub(env: Pick<Bindings, "RATE_GOVERNOR">, environment: Environment) {
  return env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName(environment), NEAR_THE_API);
}

export function directoryStub(env: Bindings) {
  return env.DIRECTORY.get(env.DIRECTORY.idFromName("tenants"));
}
