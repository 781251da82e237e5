import { env } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import {
  TokenKeeper,
  type Access,
  type IssuedToken,
  type TokenSource,
} from "../../../src/upstream/tenant/token-keeper";
import type { Sealed } from "../../../src/kernel/crypto";
import { fail, ok, type Outcome } from "../../../src/kernel/outcome";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { ADMIN, control, fresh, gw, stats, tenant } from "../../helpers/gateway";

const TENANT = env.TENANT;

type Listed = { tenant: string; counters: { tokensIssued: number; tokenWaits: number } };
async function counters(name: string) {
  const l = (
    (await (await gw("/admin/tenants", { headers: ADMIN })).json()) as { tenants: Listed[] }
  ).tenants;
  return l.find((x) => x.tenant === name)?.counters;
}

/** Token requests the sandbox has seen for one client. */
const tokenRequestsOf = async (clientId: string) =>
  (await stats()).tokenRequests.byClient[clientId] ?? 0;

// ---------------------------------------------------------------------------------------------
// The policy, over a real SqlStorage, with a driven clock and a token source the test answers.
// ---------------------------------------------------------------------------------------------

const MIN = 60_000;
/** The API's lifetime, s. */
const LIFETIME_S = 1200;
/** A start far from 0, so "never used" (last used at 0) means idle. */
const START = 1_700_000_000_000;

/**
 * A token source that counts requests and answers each when the test says. Sealing is the identity.
 */
class FakeSource implements TokenSource {
  requests = 0;
  readonly #waiting: ((answer: Outcome<IssuedToken>) => void)[] = [];

  request(): Promise<Outcome<IssuedToken>> {
    this.requests++;
    const { promise, resolve } = Promise.withResolvers<Outcome<IssuedToken>>();
    this.#waiting.push(resolve);
    return promise;
  }

  async seal(token: string): Promise<Sealed> {
    return { kid: "k", iv: "", ct: token };
  }

  async open(sealed: Sealed): Promise<string> {
    return sealed.ct;
  }

  /** Answers the oldest request still waiting. */
  answer(answer: Outcome<IssuedToken>): void {
    const resolve = this.#waiting.shift();
    if (!resolve) throw new Error("no token request is waiting");
    resolve(answer);
  }

  get waiting(): number {
    return this.#waiting.length;
  }
}

const issued = (token: string, expiresIn = LIFETIME_S): Outcome<IssuedToken> =>
  ok({ accessToken: token, expiresIn });
/** Lets a background renewal run to its end (it is only promise callbacks). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Whether `p` has settled, without waiting for it. */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await settle();
  return done;
}
const tokenOf = (o: Outcome<Access>) => (o.ok ? o.value.token : `failed: ${o.error.reason}`);

interface Harness {
  keeper: TokenKeeper;
  source: FakeSource;
  clock: { now: number };
  /** How often the keeper said the token changed (the object re-arms its alarm then). */
  changes: () => number;
  /** A new keeper over the same storage and clock, loaded: the object after an eviction. */
  reload: () => Promise<TokenKeeper>;
  sql: SqlStorage;
}

let seq = 0;
/**
 * A keeper over the storage of a tenant object never registered, under a name no other test uses.
 */
function withKeeper<R>(run: (h: Harness) => Promise<R>): Promise<R> {
  const stub = TENANT.get(
    TENANT.idFromName(`test:token-keeper-${Date.now().toString(36)}-${seq++}`),
  );
  return runInDurableObject(stub, async (_i, state) => {
    const sql = state.storage.sql;
    const clock = { now: START };
    const source = new FakeSource();
    let changes = 0;
    const make = () =>
      new TokenKeeper(
        sql,
        () => clock.now,
        source,
        async () => {
          changes++;
        },
      );
    const reload = async () => {
      const k = make();
      await k.load();
      return k;
    };
    return run({ keeper: make(), source, clock, changes: () => changes, reload, sql });
  });
}

describe("TokenKeeper: single-flight and reuse", () => {
  it("10 concurrent first calls make one token request, and all get its token", async () => {
    await withKeeper(async ({ keeper, source, changes }) => {
      const calls = Array.from({ length: 10 }, () => keeper.access());
      expect(source.requests).toBe(1);
      source.answer(issued("A"));
      const answers = await Promise.all(calls);
      expect(answers.map(tokenOf)).toEqual(Array(10).fill("A"));
      expect(answers[0]).toEqual({
        ok: true,
        value: { token: "A", expiresAt: START + LIFETIME_S * 1000 },
      });
      expect(changes()).toBe(1);
      expect(keeper.view().counters).toEqual({ tokensIssued: 1, tokenWaits: 10 });
    });
  });

  it("reuses the token until its renewal window, without another request", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      for (const t of [0, MIN, 10 * MIN, 15 * MIN - 1]) {
        clock.now = START + t;
        expect(tokenOf(await keeper.access())).toBe("A");
      }
      expect(source.requests).toBe(0);
      expect(keeper.view().counters.tokenWaits).toBe(0);
    });
  });

  it("keeps the token in storage: a reloaded keeper (after an eviction) serves it without a request", async () => {
    await withKeeper(async ({ keeper, source, clock, reload }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 5 * MIN;
      const again = await reload();
      expect(tokenOf(await again.access())).toBe("A");
      expect(source.requests).toBe(0);
    });
  });

  it("never shows the token in its view", async () => {
    await withKeeper(async ({ keeper }) => {
      await keeper.adopt({ accessToken: "secret-token-value", expiresIn: LIFETIME_S });
      const view = keeper.view();
      expect(view.token).toEqual({
        state: "valid",
        expiresAt: new Date(START + LIFETIME_S * 1000).toISOString(),
      });
      expect(JSON.stringify(view)).not.toContain("secret-token-value");
    });
  });
});

describe("TokenKeeper: renewal ahead of expiry", () => {
  it("in the renewal window, callers get the old token at once while one background renewal runs for all", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 15 * MIN;
      const answers = await Promise.all(Array.from({ length: 5 }, () => keeper.access()));
      expect(answers.map(tokenOf)).toEqual(Array(5).fill("A"));
      expect(source.requests).toBe(1);
      source.answer(issued("B"));
      await settle();
      expect(tokenOf(await keeper.access())).toBe("B");
      expect(source.requests).toBe(1);
      // Nobody waited: the renewal happened behind the callers.
      expect(keeper.view().counters).toEqual({ tokensIssued: 2, tokenWaits: 0 });
    });
  });

  it("never hands out a token in its last 60 seconds: the caller waits for a new one", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + LIFETIME_S * 1000 - 60_000;
      const call = keeper.access();
      expect(await isSettled(call)).toBe(false);
      expect(source.requests).toBe(1);
      source.answer(issued("B"));
      expect(tokenOf(await call)).toBe("B");
      expect(keeper.view().counters.tokenWaits).toBe(1);
    });
  });

  it("a failed renewal keeps serving the old token while it is usable, and tries again after the back-off", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 16 * MIN;
      expect(tokenOf(await keeper.access())).toBe("A");
      source.answer(fail("unavailable", "token endpoint answered HTTP 503"));
      await settle();
      expect(tokenOf(await keeper.access())).toBe("A");
      expect(source.requests).toBe(1);
      clock.now += 1000;
      expect(tokenOf(await keeper.access())).toBe("A");
      expect(source.requests).toBe(2);
      source.answer(issued("B"));
      await settle();
      expect(tokenOf(await keeper.access())).toBe("B");
    });
  });

  it("renew() (the alarm's part) renews a token in its window while the tenant is in use; a second run does nothing", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + MIN;
      await keeper.access();
      clock.now = START + 14 * MIN;
      await keeper.renew();
      expect(source.requests).toBe(0);
      clock.now = START + 16 * MIN;
      const renewing = keeper.renew();
      expect(source.requests).toBe(1);
      // The alarm running again while the first renewal is in flight joins nothing and asks
      // nothing.
      await keeper.renew();
      expect(source.requests).toBe(1);
      source.answer(issued("B"));
      await renewing;
      await keeper.renew();
      expect(source.requests).toBe(1);
      expect(tokenOf(await keeper.access())).toBe("B");
      expect(keeper.view().counters.tokenWaits).toBe(0);
    });
  });

  it("renew() lets an idle tenant's token lapse", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 16 * MIN;
      await keeper.renew();
      expect(source.requests).toBe(0);
      expect(keeper.dueAt()).toBeNull();
    });
  });

  it("renew() after a reload knows from storage that the tenant was in use", async () => {
    await withKeeper(async ({ keeper, source, clock, reload }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 2 * MIN;
      await keeper.access();
      clock.now = START + 16 * MIN;
      const woken = await reload();
      const renewing = woken.renew();
      expect(source.requests).toBe(1);
      source.answer(issued("B"));
      await renewing;
      expect(tokenOf(await woken.access())).toBe("B");
    });
  });

  it("dueAt(): null without a token, the jittered alarm time before the window, a retry after the back-off in it", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      expect(keeper.dueAt()).toBeNull();
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      const due = keeper.dueAt() ?? 0;
      // The window opens 5 minutes before expiry; alarms spread over its first minute.
      expect(due).toBeGreaterThanOrEqual(START + 15 * MIN);
      expect(due).toBeLessThan(START + 16 * MIN);
      clock.now = START + MIN;
      await keeper.access();
      expect(keeper.dueAt()).toBe(due);
      // In the window with the token still serving: a renewal is due; failed ones back off.
      clock.now = START + 16 * MIN;
      expect(keeper.dueAt()).toBe(clock.now + 1000);
      const first = keeper.renew();
      source.answer(fail("unavailable", "down"));
      await first;
      expect(keeper.dueAt()).toBe(clock.now + 1000);
      clock.now += 1000;
      const second = keeper.renew();
      source.answer(fail("unavailable", "down"));
      await second;
      expect(keeper.dueAt()).toBe(clock.now + 2000);
      // No longer usable: nothing for the alarm to do; the next caller asks for a token itself.
      clock.now = START + LIFETIME_S * 1000 - 60_000;
      expect(keeper.dueAt()).toBeNull();
      keeper.invalidate("A");
      expect(keeper.dueAt()).toBeNull();
    });
  });
});

describe("TokenKeeper: invalidation", () => {
  it("invalidate(current) drops the token, in storage too; the next call asks for a new one", async () => {
    await withKeeper(async ({ keeper, source, reload }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      keeper.invalidate("A");
      expect(keeper.view().token.state).toBe("none");
      const woken = await reload();
      const call = woken.access();
      expect(source.requests).toBe(1);
      source.answer(issued("B"));
      expect(tokenOf(await call)).toBe("B");
    });
  });

  it("invalidate(old) after a newer token does nothing: a slow caller's 401 cannot drop the token others use", async () => {
    await withKeeper(async ({ keeper, source }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      keeper.invalidate("A");
      const call = keeper.access();
      source.answer(issued("B"));
      expect(tokenOf(await call)).toBe("B");
      keeper.invalidate("A");
      keeper.invalidate("unknown");
      expect(tokenOf(await keeper.access())).toBe("B");
      expect(source.requests).toBe(1);
    });
  });
});

describe("TokenKeeper: failures", () => {
  it("a refused client key leaves the tenant rejected, with no further requests, until a new key is adopted", async () => {
    await withKeeper(async ({ keeper, source, reload }) => {
      const call = keeper.access();
      source.answer(fail("unprocessable", "the token endpoint refused the keys (invalid_client)"));
      const answer = await call;
      expect(answer.ok ? null : answer.error.reason).toBe("rejected");
      expect(answer.ok ? "" : answer.error.detail).toContain("invalid_client");
      const again = await keeper.access();
      expect(again.ok ? null : again.error.reason).toBe("rejected");
      expect(source.requests).toBe(1);
      expect(keeper.view().token).toMatchObject({ state: "rejected" });
      // Stored: still rejected after an eviction.
      const woken = await reload();
      const stored = await woken.access();
      expect(stored.ok ? null : stored.error.reason).toBe("rejected");
      expect(source.requests).toBe(1);
      await woken.adopt({ accessToken: "C", expiresIn: LIFETIME_S });
      expect(tokenOf(await woken.access())).toBe("C");
      expect(woken.view().token.state).toBe("valid");
    });
  });

  it("a key refused during a renewal stops the renewals: the old token serves out its time, no caller or alarm asks again", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 16 * MIN;
      expect(tokenOf(await keeper.access())).toBe("A");
      source.answer(fail("unprocessable", "the token endpoint refused the keys (invalid_client)"));
      await settle();
      for (let i = 0; i < 5; i++) {
        clock.now += 1000;
        expect(tokenOf(await keeper.access())).toBe("A");
        await keeper.renew();
      }
      expect(source.requests).toBe(1);
      expect(keeper.dueAt()).toBeNull();
      expect(keeper.view().token).toMatchObject({ state: "rejected" });
    });
  });

  it("renew() respects the back-off: an alarm that fires early for other work asks for nothing", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      clock.now = START + 16 * MIN;
      expect(tokenOf(await keeper.access())).toBe("A");
      source.answer(fail("misconfigured", "SECRETS_KEY is not configured."));
      await settle();
      clock.now += 500;
      await keeper.renew();
      expect(source.requests).toBe(1);
      clock.now += 600;
      const renewal = keeper.renew();
      expect(source.requests).toBe(2);
      source.answer(issued("B"));
      await renewal;
      expect(tokenOf(await keeper.access())).toBe("B");
    });
  });

  it("transient failures back off from 1 s, doubling to at most 30 s, and a success resets the back-off", async () => {
    await withKeeper(async ({ keeper, source, clock }) => {
      const failOnce = async (): Promise<number | undefined> => {
        const call = keeper.access();
        source.answer(fail("unavailable", "token endpoint timed out"));
        const a = await call;
        return a.ok ? undefined : a.error.retryAfterSeconds;
      };
      const backoffs: (number | undefined)[] = [];
      for (let i = 0; i < 7; i++) {
        const seconds = await failOnce();
        backoffs.push(seconds);
        const requests = source.requests;
        // Within the back-off: refused at once, no request, told how long to wait.
        clock.now += (seconds ?? 0) * 1000 - 1;
        const early = await keeper.access();
        expect(early.ok ? null : early.error).toMatchObject({
          reason: "unavailable",
          retryAfterSeconds: 1,
        });
        expect(early.ok ? "" : early.error.detail).toContain("token endpoint timed out");
        expect(source.requests).toBe(requests);
        clock.now += 1;
      }
      expect(backoffs).toEqual([1, 2, 4, 8, 16, 30, 30]);
      const call = keeper.access();
      source.answer(issued("A"));
      expect(tokenOf(await call)).toBe("A");
      keeper.invalidate("A");
      expect(await failOnce()).toBe(1);
    });
  });

  it("an operator change while a request is in flight: its answer is not kept", async () => {
    await withKeeper(async ({ keeper, source }) => {
      const call = keeper.access();
      await keeper.adopt({ accessToken: "B", expiresIn: LIFETIME_S });
      source.answer(issued("A"));
      const answer = await call;
      expect(answer.ok ? null : answer.error).toMatchObject({
        reason: "unavailable",
        retryAfterSeconds: 1,
      });
      expect(tokenOf(await keeper.access())).toBe("B");
      expect(source.requests).toBe(1);
    });
  });

  it("clear() forgets token, state and counters, in storage too; a request in flight applies nothing", async () => {
    await withKeeper(async ({ keeper, source, sql, reload }) => {
      await keeper.adopt({ accessToken: "A", expiresIn: LIFETIME_S });
      keeper.invalidate("A");
      const call = keeper.access();
      keeper.clear();
      source.answer(issued("B"));
      expect((await call).ok).toBe(false);
      expect(keeper.view()).toEqual({
        token: { state: "none" },
        lastError: null,
        counters: { tokensIssued: 0, tokenWaits: 0 },
      });
      expect(sql.exec("SELECT id FROM token_state").toArray()).toEqual([]);
      expect((await reload()).view().token.state).toBe("none");
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Through the gateway and the sandbox.
// ---------------------------------------------------------------------------------------------

describe("TokenKeeper in the tenant object: single-flight and isolation", () => {
  afterEach(restoreClock);

  it("200 concurrent first calls over 20 tenants cause exactly 20 token requests, each tenant its own", async () => {
    // Registration keeps the token it checked the key with; a 1-second lifetime lets those lapse,
    // so the 200 calls below all find their tenant without a token. The sandbox's rate limit is
    // lifted: this is about single-flight, and a 429 under a loaded machine's jitter is the
    // governor's test.
    await fresh({ tokenLifetimeSeconds: 1, rateLimitPerSecond: 1000 });
    const tenants = await Promise.all(Array.from({ length: 20 }, () => tenant()));
    // Past those tokens' 1 s lifetime, by the gateway's clock.
    await skipAhead(1100);
    await control("PUT", "/settings", { tokenLifetimeSeconds: 1200 });
    const before = await stats();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (tenants[i % 20] as (typeof tenants)[number])
          .v2("/ClientIntegrationInformation")
          .then(async (r) => ({
            i,
            status: r.status,
            body: (await r.json()) as { ClientId: string },
          })),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Every answer is the caller's own client: no token of one tenant ever served another.
    for (const r of results) expect(r.body.ClientId).toBe(tenants[r.i % 20]?.clientId);
    const after = await stats();
    expect(after.tokenRequests.total - before.tokenRequests.total).toBe(20);
    for (const t of tenants)
      expect(
        (after.tokenRequests.byClient[t.clientId] ?? 0) -
          (before.tokenRequests.byClient[t.clientId] ?? 0),
      ).toBe(1);
  });
});

describe("TokenKeeper in the tenant object: renewal and 401", () => {
  it("registration arms the alarm inside the token's renewal window; the alarm renews an in-use token once, and running it again is harmless", async () => {
    await fresh();
    const t = await tenant();
    const stub = TENANT.get(TENANT.idFromName(t.name));
    const stored = () =>
      runInDurableObject(stub, async (_i, state) => ({
        alarm: await state.storage.getAlarm(),
        token: state.storage.sql
          .exec<{ issued_at: number; expires_at: number }>(
            "SELECT issued_at, expires_at FROM token_state",
          )
          .toArray()[0],
      }));
    const registered = await stored();
    const expiresAt = registered.token?.expires_at ?? 0;
    expect(registered.alarm).toBeGreaterThanOrEqual(expiresAt - 5 * MIN);
    expect(registered.alarm).toBeLessThan(expiresAt - 4 * MIN);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    const issuedAtRegistration = await tokenRequestsOf(t.clientId);
    expect(issuedAtRegistration).toBe(1);

    // Early: the alarm renews nothing and re-arms itself, however often it runs.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await tokenRequestsOf(t.clientId)).toBe(1);

    // As if 16 minutes had passed: the stored token moved back into its renewal window, and the
    // object evicted so it reads that state again (nothing else in memory survives).
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec(
        "UPDATE token_state SET issued_at = issued_at - ?, expires_at = expires_at - ?",
        16 * MIN,
        16 * MIN,
      );
    });
    await evictDurableObject(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await tokenRequestsOf(t.clientId)).toBe(2);
    const renewed = await stored();
    expect(renewed.token?.expires_at).toBeGreaterThan(expiresAt - 16 * MIN);
    expect(renewed.alarm).toBeGreaterThanOrEqual((renewed.token?.expires_at ?? 0) - 5 * MIN);
    // Safe to run twice: the new token is not in its window, so nothing more is asked for.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await tokenRequestsOf(t.clientId)).toBe(2);
    expect((await t.v2("/ClientIntegrationInformation")).status).toBe(200);
    expect(await tokenRequestsOf(t.clientId)).toBe(2);
    expect(await counters(t.name)).toMatchObject({ tokensIssued: 2, tokenWaits: 0 });
  });

  it("after the API answers 401 to a token, one new token is issued and the call succeeds", async () => {
    await fresh({ tokenLifetimeSeconds: 1200 });
    const t = await tenant();
    const before = await stats();
    // The API revokes the token the gateway holds; the gateway learns it from a 401.
    expect(await control("POST", "/tokens/revoke", { clientId: t.clientId })).toEqual({
      revoked: 1,
    });
    const res = await t.v2("/ClientIntegrationInformation");
    expect(res.status).toBe(200);
    const after = await stats();
    expect(
      (after.tokenRequests.byClient[t.clientId] ?? 0) -
        (before.tokenRequests.byClient[t.clientId] ?? 0),
    ).toBe(1);
  });
});
