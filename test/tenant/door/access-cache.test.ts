/**
 * One hop on a warm `/v2` call, through the gateway and the sandbox: the isolate's copy of a
 * verified key spares the call the tenant's object (counted by the object's `keyChecks`), a 401
 * drops the copy and brings one new token, changes made through the admin API stop the key at once,
 * and the tenant's own answer bounds every copy by the key's retirement and the token's renewal.
 * (The bound on changes made through another isolate is driven on a clock in
 * test/upstream/access-cache.unit.test.ts.)
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Environment } from "../../../src/kernel/config";
import { asKeyHolder, tenantName } from "../../../src/kernel/stubs";
import { ACCESS_CACHE_MS, ACCESS_REFRESH_AFTER_MS } from "../../../src/upstream/access-cache";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { ADMIN, control, fresh, gw, json, stats, tenant } from "../../helpers/gateway";

/** What the tenant's object answers the holder of `key` asking for a token. */
const accessOf = (t: { environment: Environment; client: string }, key: string) =>
  asKeyHolder(env, { tenant: tenantName(t.environment, t.client), key }, (f) => f.access());
const CALL = "/ClientIntegrationInformation";
/**
 * A token lifetime whose renewal window opens inside ACCESS_CACHE_MS (12 s after issue), so that it
 * binds the copy, and late enough that the window is still ahead when the test reads the answer.
 */
const TOKEN_SECONDS = 16;
/** Between two looks at the counters while a background check runs, ms; and how many looks. */
const POLL_MS = 50;
const POLL_ATTEMPTS = 200;
type Counters = { keyChecks: number; tokensIssued: number; upstreamCalls: number };

beforeEach(() => fresh());

async function counters(name: string): Promise<Counters> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const listed = (
    (await res.json()) as { tenants: { tenant: string; counters: Counters }[] }
  ).tenants.find((t) => t.tenant === name);
  if (!listed) throw new Error(`${name} is not listed`);
  return listed.counters;
}

describe("access cache: happy", () => {
  it("a warm call makes no round trip to the tenant's object: 6 calls, 1 key check, 6 permits, 6 upstream answers", async () => {
    const t = await tenant();
    const before = await counters(t.name);
    const s0 = await stats();
    for (let i = 0; i < 6; i++) expect((await t.v2(CALL)).status).toBe(200);
    const after = await counters(t.name);
    expect(after.keyChecks - before.keyChecks).toBe(1);
    // Still one permit per call from the governor (the one hop left), and every call reached the
    // API.
    expect(after.upstreamCalls - before.upstreamCalls).toBe(6);
    expect((await stats()).requests - s0.requests).toBe(6);
    expect(after.tokensIssued).toBe(before.tokensIssued);
  });

  it("each key is its own tenant's: two warm tenants get their own data, and a key rewritten to the other's is refused", async () => {
    const a = await tenant();
    const b = await tenant();
    for (const t of [a, b, a, b])
      expect(((await (await t.v2(CALL)).json()) as { ClientId: string }).ClientId).toBe(t.clientId);
    const forged = a.gatewayKey.replace(a.client, b.client);
    expect(
      (await gw(`/v2${CALL}`, { headers: { authorization: `Bearer ${forged}` } })).status,
    ).toBe(401);
    expect((await counters(a.name)).keyChecks).toBe(1);
  });
});

describe("access cache: refresh ahead", () => {
  afterEach(restoreClock);

  /** Polls (never asserting on time) until `ready` holds: the background check runs after an answer. */
  async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < POLL_ATTEMPTS; i++) {
      if (await ready()) return;
      await scheduler.wait(POLL_MS);
    }
    throw new Error(`gave up waiting until ${what}`);
  }

  it("a key in steady use never waits for the tenant's object: past ACCESS_REFRESH_AFTER_MS a call is answered from the copy and the key is checked in the background, so a call past the first copy's bound needs no check", async () => {
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    const first = (await counters(t.name)).keyChecks;
    await skipAhead(ACCESS_REFRESH_AFTER_MS);
    expect((await t.v2(CALL)).status).toBe(200);
    await until(
      "the background check is counted",
      async () => (await counters(t.name)).keyChecks === first + 1,
    );
    // Past the first copy's ACCESS_CACHE_MS: served from the refreshed copy, with no check.
    await skipAhead(ACCESS_CACHE_MS - ACCESS_REFRESH_AFTER_MS + 1);
    expect((await t.v2(CALL)).status).toBe(200);
    expect((await counters(t.name)).keyChecks).toBe(first + 1);
  });
});

describe("access cache: invalidation", () => {
  it("a 401 from the API drops the copy: the call is retried with one new token, and the next call is warm again", async () => {
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    const before = await counters(t.name);
    const s0 = await stats();
    expect(await control("POST", "/tokens/revoke", { clientId: t.clientId })).toEqual({
      revoked: 1,
    });
    expect((await t.v2(CALL)).status).toBe(200);
    const after = await counters(t.name);
    expect(after.tokensIssued - before.tokensIssued).toBe(1);
    expect((await stats()).tokenRequests.byClient[t.clientId] ?? 0).toBe(
      (s0.tokenRequests.byClient[t.clientId] ?? 0) + 1,
    );
    // The retry asked the object (the copy was gone); the call after it is served by the new copy.
    expect(after.keyChecks - before.keyChecks).toBe(1);
    expect((await t.v2(CALL)).status).toBe(200);
    expect((await counters(t.name)).keyChecks).toBe(after.keyChecks);
  });

  it("a tenant removed through the admin API: its warm key is refused on the next call", async () => {
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    expect(
      (await gw(`/admin/tenants/demo/${t.client}`, { method: "DELETE", headers: ADMIN })).status,
    ).toBe(204);
    const s0 = await stats();
    expect((await t.v2(CALL)).status).toBe(401);
    expect((await stats()).requests).toBe(s0.requests);
  });

  it("a key rotated with no grace through the admin API: the warm old key is refused at once, the new one works", async () => {
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    const res = await gw(
      `/admin/tenants/demo/${t.client}/gateway-keys`,
      json({ graceSeconds: 0 }, "POST", ADMIN),
    );
    const { gatewayKey } = (await res.json()) as { gatewayKey: string };
    expect((await t.v2(CALL)).status).toBe(401);
    expect(
      (await gw(`/v2${CALL}`, { headers: { authorization: `Bearer ${gatewayKey}` } })).status,
    ).toBe(200);
  });
});

// The bounds themselves (the least of ACCESS_CACHE_MS, the token's renewal start and the key's
// retirement) are checked with a driven clock in test/upstream/access-cache.unit.test.ts; here,
// that the tenant's object feeds them the right limits. `Date` is held still (only `Date` is faked,
// so I/O and timers run as usual), so each copy's lifetime is an exact figure, not a race with the
// clock. The token was issued before the fake: its expiry is read from the answer.
describe("access cache: the tenant's answer bounds every copy", () => {
  afterEach(() => vi.useRealTimers());

  it("a key in its grace period is copied only until it retires; the current key for ACCESS_CACHE_MS", async () => {
    const t = await tenant();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const rotated = await gw(
      `/admin/tenants/demo/${t.client}/gateway-keys`,
      json({ graceSeconds: 4 }, "POST", ADMIN),
    );
    const { gatewayKey } = (await rotated.json()) as { gatewayKey: string };
    const old = await accessOf(t, t.gatewayKey);
    const current = await accessOf(t, gatewayKey);
    if (!old.ok || !current.ok)
      throw new Error("a key in its grace period, or the new key, was refused");
    expect([old.value.cacheMs, current.value.cacheMs]).toEqual([4000, ACCESS_CACHE_MS]);
  });

  it("a token is copied only until its renewal window opens: a quarter of its lifetime before it ends", async () => {
    await fresh({ tokenLifetimeSeconds: TOKEN_SECONDS });
    const short = await tenant();
    const held = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: held });
    const near = await accessOf(short, short.gatewayKey);
    if (!near.ok) throw new Error("the registered key was refused");
    // The token's expiry is on the object's record; its renewal window opens a quarter of the
    // lifetime before.
    expect(near.value.cacheMs).toBe(near.value.expiresAt - (TOKEN_SECONDS * 1000) / 4 - held);
  });
});
