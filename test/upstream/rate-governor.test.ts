/**
 * The rate governor through the gateway and the sandbox. Every assertion is a count, a status, a
 * header, a setting or an order, never a duration: the schedule itself (the spacing, slowing down
 * and creeping back, round-robin, deadlines, pauses) is proven on a simulated clock in
 * test/upstream/rate/pacer.unit.test.ts and test/upstream/rate/fair-queue.unit.test.ts.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ECHO_MS } from "../../src/upstream/rate/pacer";
import { WATCHER_BACKOFF_MS } from "../../src/upstream/rate/watcher-room";
import { restoreClock, skipAhead } from "../helpers/clock";
import {
  ADMIN,
  control,
  evictGovernor,
  fresh,
  gw,
  json,
  slug,
  stats,
  tenant,
} from "../helpers/gateway";
import { toolCall } from "../helpers/mcp";

const GOVERNORS = env.RATE_GOVERNOR;
const governor = () => GOVERNORS.get(GOVERNORS.idFromName("demo"));

/**
 * The sandbox's own limit, lifted far above the governor's: with the real 10 req/s, a permit
 * delayed on a loaded machine can land in the sandbox's next second and draw a 429, a retry and an
 * extra request. Lifted, every count below is the governor's doing alone.
 */
const SANDBOX_UNLIMITED = { rateLimitPerSecond: 1000 };
const CALL = "/ClientIntegrationInformation";
/** A pause long enough that a call sent right after the 429 surely finds it still on, s. */
const PAUSE_SECONDS = 5;
/** Between two looks at the counters while waiting for the governor to fill its queue, ms. */
const POLL_MS = 100;
/** Looks before giving up (about 30 s), well inside the project's 60 s test timeout. */
const POLL_ATTEMPTS = 300;

beforeEach(() => fresh(SANDBOX_UNLIMITED));
afterEach(restoreClock);

interface Governed {
  upstreamCalls: number;
  throttledWaits: number;
  refusedForDeadline: number;
}

/** The governor's counters for one tenant, as operators see them in `GET /admin/tenants`. */
async function governed(name: string): Promise<Governed> {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  expect(res.status).toBe(200);
  const { tenants } = (await res.json()) as { tenants: { tenant: string; counters: Governed }[] };
  const listed = tenants.find((t) => t.tenant === name);
  if (!listed) throw new Error(`${name} is not listed`);
  return listed.counters;
}

/** Waits (by polling, never asserting on time) until `ready` holds. */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < POLL_ATTEMPTS; i++) {
    if (await ready()) return;
    await scheduler.wait(POLL_MS);
  }
  throw new Error(`gave up waiting until ${what}`);
}

describe("rate governor: the shared 10 req/s", () => {
  it("answers 100 calls offered at once, each with one permit and one request to the API", async () => {
    const t = await tenant();
    const [sandboxBefore, before] = [await stats(), await governed(t.name)];
    const results = await Promise.all(Array.from({ length: 100 }, () => t.v2(CALL)));
    expect(results.map((r) => r.status)).toEqual(Array<number>(100).fill(200));
    const [sandboxAfter, after] = [await stats(), await governed(t.name)];
    expect(sandboxAfter.requests - sandboxBefore.requests).toBe(100);
    expect(sandboxAfter.throttled - sandboxBefore.throttled).toBe(0);
    expect(after.upstreamCalls - before.upstreamCalls).toBe(100);
    expect(after.refusedForDeadline - before.refusedForDeadline).toBe(0);
  });

  it("is fair: tenant B's 5 calls, offered behind 150 queued calls of tenant A, finish while most of A's still wait", async () => {
    const a = await tenant();
    const b = await tenant();
    const before = await governed(a.name);
    const finished: ("a" | "b")[] = [];
    const send = (t: typeof a, who: "a" | "b") =>
      t.v2(CALL).then((r) => {
        finished.push(who);
        return r.status;
      });
    const bulk = Promise.all(Array.from({ length: 200 }, () => send(a, "a")));
    await until(
      "150 of A's calls wait in the governor",
      async () => (await governed(a.name)).throttledWaits - before.throttledWaits >= 150,
    );
    const mine = await Promise.all(Array.from({ length: 5 }, () => send(b, "b")));
    expect(mine).toEqual([200, 200, 200, 200, 200]);
    expect((await bulk).filter((s) => s !== 200)).toEqual([]);
    // Round-robin grants B's 5 within the next 10 permits, while over a hundred of A's calls still
    // wait. First-come-first-served would put B behind every queued call of A, leaving at most the
    // 50 not yet queued to finish after B.
    const aAfterB = finished.length - 1 - finished.lastIndexOf("b");
    expect(aAfterB).toBeGreaterThanOrEqual(75);
    expect((await governed(b.name)).refusedForDeadline).toBe(0);
  });

  it("grants a burst of 8 parallel calls into a free second at once: none of them waits", async () => {
    await evictGovernor("demo");
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200); // the token, outside the burst
    await skipAhead(2000); // past the window of that call, by the governor's clock
    const before = await governed(t.name);
    const results = await Promise.all(Array.from({ length: 8 }, () => t.v2(CALL)));
    expect(results.map((r) => r.status)).toEqual(Array<number>(8).fill(200));
    const after = await governed(t.name);
    expect(after.upstreamCalls - before.upstreamCalls).toBe(8);
    expect(after.throttledWaits - before.throttledWaits).toBe(0);
  });

  it("learns a smaller burst when the API answers bursts with 429 (a fixed-window limit), and falls back to pacing", async () => {
    await evictGovernor("demo");
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    expect((await governor().state()).burst).toBe(10);
    // 3 calls per fixed second at the sandbox: 10 at once draw at least 4 429s wherever the
    // second's edge falls (at most 6 pass, 3 on each side).
    await control("PUT", "/settings", { rateLimitPerSecond: 3, fixedWindowMs: 1000 });
    const sandboxBefore = await stats();
    await skipAhead(2000);
    await Promise.all(Array.from({ length: 10 }, () => t.v2(CALL)));
    expect((await stats()).throttled - sandboxBefore.throttled).toBeGreaterThanOrEqual(4);
    const learned = (await governor().state()).burst;
    expect(learned).toBeLessThanOrEqual(5);
    // The next burst is paced beyond the learned burst: at least 8 − learned of 8 calls wait.
    await control("PUT", "/settings", SANDBOX_UNLIMITED);
    await skipAhead(2000);
    const before = await governed(t.name);
    await Promise.all(Array.from({ length: 8 }, () => t.v2(CALL)));
    const after = await governed(t.name);
    expect(after.throttledWaits - before.throttledWaits).toBeGreaterThanOrEqual(8 - learned);
    await evictGovernor("demo");
  });

  it("after a 429 nudges the pace; after a second, pauses and slows it, and refuses at once, with 503, Retry-After and the unavailable problem, a call whose wait would pass its deadline", async () => {
    const t = await tenant();
    const pace = await governor().state();
    expect(pace.spacingMs).toBe(pace.floorMs);
    // A 429 on a write is passed on. The first only nudges the pace (a stall on the way, most
    // likely); a second one after that 429's echo second pauses the whole environment for its
    // Retry-After and slows the pace. The exact factors are pacer.test.ts's.
    await control("PUT", "/settings", {
      faults: [
        {
          kind: "throttle",
          target: "api",
          path: "/Customers",
          count: 2,
          retryAfterSeconds: PAUSE_SECONDS,
        },
      ],
    });
    expect((await t.v2("/Customers", json({ Name: "Nudged AS" }))).status).toBe(429);
    const nudged = await governor().state();
    expect(nudged.spacingMs).toBeGreaterThan(pace.floorMs);
    expect(nudged.pausedForMs).toBe(0);
    // Past the first 429's echo second by the governor's clock, with no wait.
    await skipAhead(ECHO_MS);
    expect((await t.v2("/Customers", json({ Name: "Paused AS" }))).status).toBe(429);
    const slowed = await governor().state();
    expect(slowed.spacingMs).toBeGreaterThan(nudged.spacingMs);
    expect(slowed.pausedForMs).toBeGreaterThan(0);
    const before = await governed(t.name);
    const res = await t.v2(CALL, { headers: { "x-deadline-ms": "500" } });
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toMatchObject({ type: "https://ledgergate.dev/problems/unavailable" });
    const after = await governed(t.name);
    expect(after.refusedForDeadline - before.refusedForDeadline).toBe(1);
    expect(after.upstreamCalls).toBe(before.upstreamCalls);
    // A patient call waits the pause out (and leaves the environment unpaused for the next test).
    const sent = (await stats()).requests;
    expect((await t.v2(CALL)).status).toBe(200);
    expect((await stats()).requests - sent).toBe(1);
    // The slower pace lives in the governor's memory only: eviction restores the floor for whatever
    // runs next.
    await evictGovernor("demo");
  });
});

describe("rate governor: lanes and classes", () => {
  it("grants a permit to each lane, counting the caller and the assistant for the tenant and the watcher apart", async () => {
    await evictGovernor("demo");
    const name = `demo:${slug("lanes")}`;
    // The watcher first: it goes only with a first-class permit due, which the others' take.
    for (const lane of ["watcher", "caller", "assistant"] as const)
      expect(await governor().acquire(name, 5000, lane)).toMatchObject({ ok: true, waitedMs: 0 });
    expect(await governor().acquire(name, 5000)).toMatchObject({ ok: true });
    const lanes = await governor().laneCounters();
    expect(lanes[name]).toEqual({ permits: 2, waited: 0, refused: 0 });
    expect(lanes[`${name}#assistant`]).toEqual({ permits: 1, waited: 0, refused: 0 });
    expect(lanes[`${name}#watcher`]).toEqual({ permits: 1, waited: 0, refused: 0 });
    expect((await governor().counters())[name]).toEqual({ permits: 3, waited: 0, refused: 0 });
    const { watcher } = await governor().state();
    expect(watcher.places).toBe(2);
    expect(watcher.inWindow).toBe(1);
  });

  it("refuses a watcher at once while callers wait, and serves the callers as before", async () => {
    await evictGovernor("demo");
    const name = `demo:${slug("busy")}`;
    const callers = Array.from({ length: 30 }, () => governor().acquire(name, 30_000));
    await until("callers wait in the governor", async () => (await governor().state()).waiting > 0);
    const refused = await governor().acquire(`${name}-w`, 1000, "watcher");
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect((await Promise.all(callers)).every((p) => p.ok)).toBe(true);
  });

  it("keeps the watcher out after a 429 that stops no caller", async () => {
    await evictGovernor("demo");
    const name = `demo:${slug("backoff")}`;
    const first = await governor().acquire(name, 5000);
    if (!first.ok) throw new Error("no permit");
    await governor().throttled(1, first.permit);
    expect(await governor().acquire(name, 5000)).toMatchObject({ ok: true });
    const watcher = await governor().acquire(name, 1000, "watcher");
    expect(watcher.ok).toBe(false);
    expect(watcher.ok === false && watcher.retryAfterSeconds).toBeGreaterThanOrEqual(
      WATCHER_BACKOFF_MS / 1000 - 1,
    );
    // The nudge lives in the governor's memory only.
    await evictGovernor("demo");
  });

  it("takes an MCP tool's upstream calls in the tenant's assistant lane, and its /v2 calls in its own", async () => {
    await evictGovernor("demo");
    const t = await tenant();
    expect((await t.v2(CALL)).status).toBe(200);
    const { message } = await toolCall("/mcp", t.gatewayKey, "read", { path: CALL });
    expect(message?.result?.isError).toBeFalsy();
    const lanes = await governor().laneCounters();
    expect(lanes[`${t.name}#assistant`]?.permits).toBe(1);
    // The registration's token request and the /v2 call.
    expect(lanes[t.name]?.permits).toBeGreaterThanOrEqual(1);
    expect(lanes[`${t.name}#watcher`]).toBeUndefined();
  });
});
