/**
 * The isolate's cache of verified gateway keys, on a driven clock: a copy is served until its time
 * and never after, never to another tenant, dropped by a refusal, a 401 or a change to its tenant;
 * and a removal or a key's retirement made elsewhere stops the key within `ACCESS_CACHE_MS`; a copy
 * in steady use is refreshed in the background before it lapses, under the same bound.
 */
import { describe, expect, it } from "vitest";
import type { Outcome } from "../../src/kernel/outcome";
import {
  ACCESS_CACHE_MS,
  ACCESS_REFRESH_AFTER_MS,
  AccessCache,
  cacheMs,
  type KeyAccess,
} from "../../src/upstream/access-cache";
import { renewalStart } from "../../src/upstream/token-timing";

const KEY = `lg_demo_acme_${"a".repeat(43)}`;
const OTHER_KEY = `lg_demo_acme_${"b".repeat(43)}`;
const T0 = 1_700_000_000_000;

/**
 * A tenant's object as the cache sees it: it counts the `access` calls it answers and judges keys
 * as the real one does (removed: no key is valid; a retiring key: valid until `retiresAt`, and the
 * copy it allows ends there too).
 */
function tenantObject(clock: { now: number }, token = "tok-1") {
  const o = {
    asks: 0,
    token,
    removed: false,
    retiresAt: null as number | null,
    access: async (): Promise<Outcome<KeyAccess>> => {
      o.asks++;
      if (o.removed || (o.retiresAt !== null && clock.now >= o.retiresAt))
        return {
          ok: false,
          error: { reason: "unauthorized", detail: "The gateway key is not valid." },
        };
      const expiresAt = clock.now + 20 * 60_000;
      return {
        ok: true,
        value: {
          token: o.token,
          expiresAt,
          cacheMs: cacheMs(clock.now, {
            servesUntil: expiresAt - 5 * 60_000,
            retiresAt: o.retiresAt,
          }),
        },
      };
    },
  };
  return o;
}

function setup() {
  const clock = { now: T0 };
  const cache = new AccessCache(() => clock.now);
  const tenant = tenantObject(clock);
  const call = (key = KEY, name: "demo:acme" | "demo:other" = "demo:acme", fresh = false) =>
    cache.access(name, key, tenant.access, fresh);
  return { clock, cache, tenant, call };
}

describe("access cache: a warm key skips the tenant's object", () => {
  it("serves a copy until ACCESS_CACHE_MS after the answer, then asks again", async () => {
    const { clock, tenant, call } = setup();
    expect(await call()).toMatchObject({ ok: true, value: { token: "tok-1" } });
    for (let i = 0; i < 10; i++) {
      clock.now = T0 + (i * (ACCESS_CACHE_MS - 1)) / 9;
      expect((await call()).ok).toBe(true);
    }
    expect(tenant.asks).toBe(1);
    clock.now = T0 + ACCESS_CACHE_MS;
    await call();
    expect(tenant.asks).toBe(2);
  });

  it("never keeps a copy longer than ACCESS_CACHE_MS, whatever the answer says; 0 keeps none", async () => {
    const { clock, cache } = setup();
    let answer: KeyAccess = {
      token: "t",
      expiresAt: T0 + 3_600_000,
      cacheMs: 10 * ACCESS_CACHE_MS,
    };
    let asks = 0;
    const ask = async (): Promise<Outcome<KeyAccess>> => (asks++, { ok: true, value: answer });
    await cache.access("demo:acme", KEY, ask);
    clock.now = T0 + ACCESS_CACHE_MS;
    answer = { ...answer, cacheMs: 0 };
    await cache.access("demo:acme", KEY, ask);
    await cache.access("demo:acme", KEY, ask);
    expect(asks).toBe(3);
    expect(cache.size).toBe(0);
  });

  it("asks the object when told to (`fresh`), and keeps its answer", async () => {
    const { tenant, call } = setup();
    await call();
    await call(KEY, "demo:acme", true);
    await call();
    expect(tenant.asks).toBe(2);
  });
});

describe("access cache: isolation", () => {
  it("serves a copy only to a call for the tenant it was made for", async () => {
    const { tenant, call } = setup();
    await call(KEY, "demo:acme");
    await call(KEY, "demo:other");
    await call(OTHER_KEY, "demo:acme");
    expect(tenant.asks).toBe(3);
  });

  it("a refusal is not kept and drops the key's copy", async () => {
    const { clock, tenant, call } = setup();
    await call();
    tenant.removed = true;
    clock.now = T0 + ACCESS_CACHE_MS;
    expect(await call()).toMatchObject({ ok: false, error: { reason: "unauthorized" } });
    expect(await call()).toMatchObject({ ok: false });
    expect(tenant.asks).toBe(3);
  });
});

describe("access cache: invalidation", () => {
  it("a 401 drops every copy of that token (each key of the tenant asks again); other tokens stay", async () => {
    const { clock, cache, call } = setup();
    const other = tenantObject(clock, "tok-other");
    await call(KEY);
    await call(OTHER_KEY);
    await cache.access("demo:other", `lg_demo_other_${"c".repeat(43)}`, other.access);
    expect(cache.size).toBe(3);
    cache.dropToken("tok-1");
    expect(cache.size).toBe(1);
  });

  it("a change made through this isolate drops the tenant's copies at once", async () => {
    const { cache, tenant, call } = setup();
    await call();
    cache.dropTenant("demo:acme");
    tenant.removed = true;
    expect((await call()).ok).toBe(false);
  });

  it("a removal made elsewhere stops the key within ACCESS_CACHE_MS of the copy", async () => {
    const { clock, tenant, call } = setup();
    await call();
    tenant.removed = true;
    clock.now = T0 + ACCESS_CACHE_MS - 1;
    // The stated bound: until here the copy may still serve.
    expect((await call()).ok).toBe(true);
    clock.now = T0 + ACCESS_CACHE_MS;
    expect((await call()).ok).toBe(false);
  });

  it("a key rotated elsewhere stops at its retirement when the copy was made knowing it, and within the bound when not", async () => {
    const { clock, tenant, call } = setup();
    await call();
    // Rotated after the copy was made, retiring at once: the copy is the only thing that still
    // serves it.
    tenant.retiresAt = T0 + 1;
    clock.now = T0 + ACCESS_CACHE_MS;
    expect((await call()).ok).toBe(false);
    // A copy made during the grace period ends at the retirement, not ACCESS_CACHE_MS later.
    tenant.retiresAt = clock.now + 4_000;
    const made = clock.now;
    expect((await call()).ok).toBe(true);
    clock.now = made + 3_999;
    expect((await call()).ok).toBe(true);
    const asks = tenant.asks;
    clock.now = made + 4_000;
    expect((await call()).ok).toBe(false);
    expect(tenant.asks).toBe(asks + 1);
  });
});

describe("access cache: refresh ahead", () => {
  /** The refreshes a call handed to its `background`, run when the test says. */
  function backgroundSetup() {
    const base = setup();
    const refreshes: Promise<void>[] = [];
    const warm = (key = KEY) =>
      base.cache.access("demo:acme", key, base.tenant.access, false, (r) => refreshes.push(r));
    const settle = async () => void (await Promise.all(refreshes.splice(0)));
    return { ...base, warm, refreshes, settle };
  }

  it("answers a call from a copy older than ACCESS_REFRESH_AFTER_MS and refreshes it in the background, so a steady caller never waits for the object", async () => {
    const { clock, tenant, cache, refreshes, settle } = backgroundSetup();
    // The object answers only when the test lets it: a call that waited for it would never end.
    const held: (() => void)[] = [];
    const slow = () =>
      new Promise<Outcome<KeyAccess>>((resolve) =>
        held.push(() => void tenant.access().then(resolve)),
      );
    const warm = () => cache.access("demo:acme", KEY, slow, false, (r) => refreshes.push(r));
    const answer = async () => {
      held.splice(0).forEach((go) => go());
      await settle();
    };
    expect((await cache.access("demo:acme", KEY, tenant.access)).ok).toBe(true);
    clock.now = T0 + ACCESS_REFRESH_AFTER_MS - 1;
    await warm();
    expect(held).toHaveLength(0);
    clock.now = T0 + ACCESS_REFRESH_AFTER_MS;
    // Answered from the copy while the object's answer is still held; asked once, not twice.
    expect(await warm()).toMatchObject({ ok: true, value: { token: "tok-1" } });
    expect(await warm()).toMatchObject({ ok: true });
    expect(held).toHaveLength(1);
    await answer();
    // Past the first copy's bound, the refreshed copy serves with no ask.
    clock.now = T0 + ACCESS_CACHE_MS + 1;
    expect((await warm()).ok).toBe(true);
    expect(held).toHaveLength(0);
    // A call every second for a minute: each answered with the object's answer held, the object
    // asked once per ACCESS_REFRESH_AFTER_MS.
    for (let second = 1; second <= 60; second++) {
      clock.now = T0 + ACCESS_CACHE_MS + 1 + second * 1000;
      expect((await warm()).ok).toBe(true);
      await answer();
    }
    expect(tenant.asks).toBe(2 + 60_000 / ACCESS_REFRESH_AFTER_MS);
  });

  it("keeps the bound: a removal made elsewhere is seen by the refresh, and the copy it refreshed serves no longer than ACCESS_CACHE_MS", async () => {
    const { clock, tenant, warm, settle } = backgroundSetup();
    await warm();
    tenant.removed = true;
    clock.now = T0 + ACCESS_REFRESH_AFTER_MS;
    expect((await warm()).ok).toBe(true);
    await settle();
    expect((await warm()).ok).toBe(false);
    // A refresh that never answers (the object unreachable) leaves the copy to its bound.
    const stalled = backgroundSetup();
    await stalled.warm();
    stalled.tenant.access = () => new Promise<Outcome<KeyAccess>>(() => {});
    stalled.clock.now = T0 + ACCESS_REFRESH_AFTER_MS;
    expect((await stalled.warm()).ok).toBe(true);
    stalled.clock.now = T0 + ACCESS_CACHE_MS;
    stalled.tenant.access = async () => ({
      ok: false,
      error: { reason: "unauthorized", detail: "The gateway key is not valid." },
    });
    expect((await stalled.warm()).ok).toBe(false);
  });

  it("never brings back a copy dropped while its refresh was on its way (a change through this isolate, a 401)", async () => {
    const { clock, cache, tenant, warm, settle } = backgroundSetup();
    await warm();
    clock.now = T0 + ACCESS_REFRESH_AFTER_MS;
    await warm();
    // The tenant is changed through this isolate before the refresh answers.
    cache.dropTenant("demo:acme");
    await settle();
    expect(cache.size).toBe(0);
    tenant.removed = true;
    expect((await warm()).ok).toBe(false);
    tenant.removed = false;
    await warm();
    clock.now += ACCESS_REFRESH_AFTER_MS;
    await warm();
    cache.dropToken("tok-1");
    await settle();
    expect(cache.size).toBe(0);
  });

  it("refreshes only with a place to run it, and not a copy too short-lived to reach the refresh age", async () => {
    const { clock, tenant, call, warm, refreshes } = backgroundSetup();
    await call();
    clock.now = T0 + ACCESS_REFRESH_AFTER_MS;
    await call(); // no background given: the copy serves to its bound, as before
    expect(tenant.asks).toBe(1);
    // A key retiring in 4 s: its copy lapses before the refresh age, and the next call asks.
    const short = backgroundSetup();
    short.tenant.retiresAt = T0 + 4_000;
    await short.warm();
    short.clock.now = T0 + 3_999;
    await short.warm();
    expect(short.refreshes).toHaveLength(0);
    expect(short.tenant.asks).toBe(1);
    expect(refreshes).toHaveLength(0);
    void warm;
  });
});

describe("access cache: size and lifetime rules", () => {
  it("holds at most its limit: expired copies go first, then the oldest", async () => {
    const clock = { now: T0 };
    const cache = new AccessCache(() => clock.now, 3);
    const ask = (ms: number) => async (): Promise<Outcome<KeyAccess>> => ({
      ok: true,
      value: { token: "t", expiresAt: T0 + 3_600_000, cacheMs: ms },
    });
    const key = (c: string) => `lg_demo_acme_${c.repeat(43)}`;
    await cache.access("demo:acme", key("a"), ask(1_000));
    await cache.access("demo:acme", key("b"), ask(ACCESS_CACHE_MS));
    await cache.access("demo:acme", key("c"), ask(ACCESS_CACHE_MS));
    clock.now = T0 + 1_000;
    await cache.access("demo:acme", key("d"), ask(ACCESS_CACHE_MS));
    expect(cache.size).toBe(3);
    await cache.access("demo:acme", key("e"), ask(ACCESS_CACHE_MS));
    expect(cache.size).toBe(3);
    let asked = 0;
    const count = async (): Promise<Outcome<KeyAccess>> => (
      asked++,
      { ok: true, value: { token: "t", expiresAt: T0 + 3_600_000, cacheMs: ACCESS_CACHE_MS } }
    );
    // b was the oldest live copy, so it went for e; c, d and e are still served.
    for (const c of ["c", "d", "e"]) await cache.access("demo:acme", key(c), count);
    expect(asked).toBe(0);
  });

  it("cacheMs: the least of the bound, the token's renewal start and the key's retirement; never negative", () => {
    const t = { token: "t", issuedAt: T0, expiresAt: T0 + 20 * 60_000 };
    expect(cacheMs(T0, { servesUntil: renewalStart(t), retiresAt: null })).toBe(ACCESS_CACHE_MS);
    expect(
      cacheMs(renewalStart(t) - 2_000, { servesUntil: renewalStart(t), retiresAt: null }),
    ).toBe(2_000);
    expect(cacheMs(T0, { servesUntil: renewalStart(t), retiresAt: T0 + 4_000 })).toBe(4_000);
    expect(cacheMs(renewalStart(t) + 1, { servesUntil: renewalStart(t), retiresAt: null })).toBe(0);
    expect(cacheMs(T0, { servesUntil: 0, retiresAt: null })).toBe(0);
  });
});
