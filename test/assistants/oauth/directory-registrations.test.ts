/**
 * The caps and lifetimes of OAuth dynamic registration
 * (`src/assistants/oauth/directory-registrations.ts`), with the clock passed in: the pace per
 * address and for the gateway (a window of `WINDOW_MS`) and their Retry-After, a row given back,
 * the cap of unused registrations evicting the oldest, the end of an unused one, and a used one
 * kept. Then the `Directory`'s alarm deleting the client records.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MAX_UNUSED,
  OAuthRegistrations,
  PER_ADDRESS_PER_WINDOW,
  PER_WINDOW,
  UNUSED_LIFETIME_MS,
  WINDOW_MS,
  type Admission,
} from "../../../src/assistants/oauth/directory-registrations";

const T0 = Date.parse("2026-11-26T10:00:00.000Z");
let seq = 0;

/** A fresh directory object (not the gateway's "tenants"). */
const freshDirectory = () =>
  env.DIRECTORY.get(env.DIRECTORY.idFromName(`test:oauth-registrations-${Date.now()}-${seq++}`));

/** A fresh directory object's registrations module. */
const withRegistrations = <R>(run: (r: OAuthRegistrations) => R) =>
  runInDurableObject(freshDirectory(), (_i, state) =>
    run(new OAuthRegistrations(state.storage.sql)),
  );

/** The row id of an admission that must have succeeded. */
function idOf(a: Admission): number {
  if (!a.ok) throw new Error(`refused: ${a.reason}`);
  return a.id;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("oauth registrations: the paces", () => {
  it(`admits ${PER_ADDRESS_PER_WINDOW} from one address in a window, then refuses that address alone until its oldest leaves`, async () => {
    await withRegistrations((r) => {
      for (let i = 0; i < PER_ADDRESS_PER_WINDOW; i++)
        expect(r.take(T0 + i * 1000, "a").ok).toBe(true);
      const now = T0 + PER_ADDRESS_PER_WINDOW * 1000;
      for (let i = 0; i < PER_ADDRESS_PER_WINDOW; i++)
        expect(r.take(now, "a")).toEqual({
          ok: false,
          reason: "address",
          retryAfterSeconds: (T0 + WINDOW_MS - now) / 1000,
        });
      expect(r.take(now, "b").ok).toBe(true);
      expect(r.take(now, null).ok).toBe(true);
      expect(r.take(T0 + WINDOW_MS, "a").ok).toBe(true);
    });
  });

  it(`admits ${PER_WINDOW} in a window for the gateway, from any addresses, then refuses every address`, async () => {
    await withRegistrations((r) => {
      for (let i = 0; i < PER_WINDOW; i++)
        expect(r.take(T0 + i * 100, `addr-${i % 40}`).ok).toBe(true);
      const now = T0 + PER_WINDOW * 100;
      const refused = {
        ok: false,
        reason: "pace",
        retryAfterSeconds: (T0 + WINDOW_MS - now) / 1000,
      };
      expect(r.take(now, "new-address")).toEqual(refused);
      expect(r.take(now, null)).toEqual(refused);
      expect(r.take(T0 + WINDOW_MS, "new-address").ok).toBe(true);
    });
  });

  it("a row given back is free again", async () => {
    await withRegistrations((r) => {
      const ids = Array.from({ length: PER_ADDRESS_PER_WINDOW }, () => idOf(r.take(T0, "a")));
      expect(r.take(T0, "a").ok).toBe(false);
      r.giveBack(ids[0] ?? 0);
      expect(r.take(T0, "a").ok).toBe(true);
    });
  });
});

describe("oauth registrations: the lifetimes", () => {
  it(`ends an unused registration ${UNUSED_LIFETIME_MS / 3_600_000} h after it was made; a used one is never due`, async () => {
    await withRegistrations((r) => {
      r.record(idOf(r.take(T0, null)), "unused", T0);
      r.record(idOf(r.take(T0 + 1, null)), "used", T0 + 1);
      expect(r.use("used", T0 + 2)).toBe(true);
      expect(r.dueAt()).toBe(T0 + UNUSED_LIFETIME_MS);
      expect(r.due(T0 + UNUSED_LIFETIME_MS - 1, 50)).toEqual([]);
      const end = T0 + UNUSED_LIFETIME_MS;
      expect(r.due(end, 50)).toEqual([{ id: 1, client_id: "unused" }]);
      // Too late to approve: its record is being deleted.
      expect(r.use("unused", end)).toBe(false);
      r.forget([1]);
      expect(r.due(end + UNUSED_LIFETIME_MS, 50)).toEqual([]);
      expect(r.dueAt()).toBeNull();
      // A client it does not track (a metadata document's, or a row long forgotten): not its call.
      expect(r.use("https://claude.ai/oauth/client.json", end)).toBe(true);
    });
  });

  it(`holds ${MAX_UNUSED} unused alive: the next evicts the oldest unused one (due at once); used ones do not count`, async () => {
    await withRegistrations((r) => {
      // Spread over time, so neither pace binds.
      const step = WINDOW_MS / PER_WINDOW + 1;
      for (let i = 0; i < MAX_UNUSED; i++) {
        const at = T0 + i * step;
        const a = r.take(at, null);
        expect(a).toMatchObject({ ok: true, evicted: false });
        r.record(idOf(a), `c${i}`, at);
      }
      const now = T0 + MAX_UNUSED * step;
      expect(r.use("c0", now)).toBe(true);
      r.record(idOf(r.take(now, null)), "n1", now);
      expect(r.due(now, 50)).toEqual([]);
      const next = r.take(now + step, null);
      expect(next).toMatchObject({ ok: true, evicted: true });
      expect(r.due(now + step, 50)).toEqual([{ id: 2, client_id: "c1" }]);
      r.forget([2]);
      r.record(idOf(next), "n2", now + step);
      expect(r.take(now + 2 * step, null)).toMatchObject({ ok: true, evicted: true });
      expect(r.due(now + 2 * step, 50).map((d) => d.client_id)).toEqual(["c2"]);
    });
  });

  it("a registration evicted and swept while it ran comes back due with its client", async () => {
    await withRegistrations((r) => {
      const id = idOf(r.take(T0, null));
      r.giveBack(id);
      expect(r.record(id, "late", T0 + 5)).toBe(true);
      expect(r.due(T0 + 5, 50).map((d) => d.client_id)).toEqual(["late"]);
    });
  });
});

describe("oauth registrations: the directory's alarm", () => {
  it("deletes an unused registration's client record at its end, keeps a used one's, and is safe to run twice", async () => {
    const directory = freshDirectory();
    const key = (c: string) => `client:${c}`;
    const [unused, used] = [`unused-${crypto.randomUUID()}`, `used-${crypto.randomUUID()}`];
    for (const c of [unused, used]) {
      await env.OAUTH_KV.put(key(c), JSON.stringify({ clientId: c }));
      const a = await directory.admitRegistration(null);
      await directory.recordRegistration(idOf(a), c);
    }
    expect(await directory.useRegistration(used)).toBe(true);
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() + UNUSED_LIFETIME_MS + 1000);
    expect(await runDurableObjectAlarm(directory)).toBe(true);
    expect(await env.OAUTH_KV.get(key(unused))).toBeNull();
    expect(await env.OAUTH_KV.get(key(used))).not.toBeNull();
    // Nothing left to end: no alarm; a second run (as after a retry) changes nothing.
    expect(await runDurableObjectAlarm(directory)).toBe(false);
    await runInDurableObject(directory, (instance) => instance.alarm());
    expect(await env.OAUTH_KV.get(key(used))).not.toBeNull();
  });
});
