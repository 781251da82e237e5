/**
 * @module
 * The end of onboarding v2: the state used up, Finalize's client keys each registered as an
 * operator's would be. The keys go nowhere else; the gateway key each registration issues is not
 * shown either (the client's user sees this page, not the operator).
 */
import type { Bindings, Environment } from "../kernel/config";
import { sha256Hex } from "../kernel/crypto";
import { directoryStub, type TenantName } from "../kernel/stubs";
import { tryRegisterTenant } from "../tenant/admin";
import { baseSlug, slugCandidates } from "./slug";
import { FinalizeAnswer, onboardingCall } from "./upstream";

export interface CallbackQuery {
  state?: string | undefined;
  token?: string | undefined;
  error?: string | undefined;
}

export interface Connected {
  tenant: TenantName;
  client: string;
  name: string;
  organizationNumber: string | null;
}

/** A client that could not be registered, and why (never a secret). */
export interface NotConnected {
  name: string;
  organizationNumber: string | null;
  detail: string;
}

export type FinishFailure =
  | "unknown-state"
  | "used-state"
  | "expired-state"
  | "declined"
  | "no-token"
  | "refused"
  | "unavailable";

export type Finished =
  | { ok: true; environment: Environment; connected: Connected[]; failed: NotConnected[] }
  | { ok: false; reason: FinishFailure; detail: string };

const STATE_FAILURES = {
  unknown: {
    reason: "unknown-state",
    detail: "This onboarding link is not one this gateway started. Ask the operator for a new one.",
  },
  used: {
    reason: "used-state",
    detail:
      "This onboarding was completed already; its link works once. Nothing more was connected.",
  },
  expired: {
    reason: "expired-state",
    detail: "This onboarding took too long and expired. Ask the operator for a new link.",
  },
} as const;

/** Registers one onboarded client under the first free slug its name (or number) gives. */
async function register(
  env: Bindings,
  environment: Environment,
  c: {
    ClientKey: string;
    ClientName?: string | null | undefined;
    ClientOrganizationNumber?: string | null | undefined;
  },
): Promise<{ ok: true; value: Connected } | { ok: false; error: NotConnected }> {
  const organizationNumber = c.ClientOrganizationNumber?.trim() || null;
  const name = (c.ClientName?.trim() || organizationNumber || "Onboarded client").slice(0, 200);
  for (const client of slugCandidates(baseSlug(c.ClientName, organizationNumber))) {
    const r = await tryRegisterTenant(env, { environment, client, name, clientKey: c.ClientKey });
    if (r.ok)
      return { ok: true, value: { tenant: r.value.tenant, client, name, organizationNumber } };
    // A taken slug is refused before anything is sent upstream: the next one costs nothing.
    if (r.error.reason !== "conflict")
      return { ok: false, error: { name, organizationNumber, detail: r.error.detail } };
  }
  return {
    ok: false,
    error: { name, organizationNumber, detail: "No free client slug was found for this name." },
  };
}

/** Completes an onboarding; the state is used up first, so a replay finds it used. */
export async function finishOnboarding(env: Bindings, q: CallbackQuery): Promise<Finished> {
  if (!q.state) return { ok: false, ...STATE_FAILURES.unknown };
  const taken = await directoryStub(env).takeOnboardingState(await sha256Hex(q.state));
  if (!taken.ok) return { ok: false, ...STATE_FAILURES[taken.reason] };
  const environment = taken.environment;
  if (q.error)
    return {
      ok: false,
      reason: "declined",
      detail: `The connection was not approved (${q.error.slice(0, 100)}). Nothing was connected.`,
    };
  if (!q.token)
    return {
      ok: false,
      reason: "no-token",
      detail:
        "The accounting system sent no onboarding token. Nothing was connected; ask the operator for a new link.",
    };
  const finalized = await onboardingCall(
    env,
    environment,
    "Finalize",
    { OnboardingToken: q.token },
    FinalizeAnswer,
  );
  if (!finalized.ok)
    return {
      ok: false,
      reason: finalized.error.reason === "bad-request" ? "refused" : "unavailable",
      detail: `${finalized.error.detail} Nothing was connected.`,
    };
  const connected: Connected[] = [];
  const failed: NotConnected[] = [];
  // One at a time: each asks for a token, and they share the environment's budget anyway.
  for (const c of finalized.value.OnboardedClientsInformation) {
    const r = await register(env, environment, c);
    if (r.ok) connected.push(r.value);
    else failed.push(r.error);
  }
  return { ok: true, environment, connected, failed };
}
