/**
 * The caps of OAuth dynamic registration (`src/durable/directory/oauth-registrations.ts`), with the
 * clock passed in: the pace (a window of `WINDOW_MS`), the number alive (`MAX_REGISTRATIONS`, each
 * for its record's lifetime), the Retry-After of each, and a slot given back.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  MAX_REGISTRATIONS,
  OAuthRegistrations,
  PER_WINDOW,
  WINDOW_MS,
} from "../../../src/durable/directory/oauth-registrations";

const T0 = Date.parse("2026-11-26T10:00:00.000Z");
const LIFE = 30 * 86_400_000;
let seq = 0;

/** A fresh directory object's registrations module (not the gateway's "tenants"). */
const withRegistrations = <R>(run: (r: OAuthRegistrations) => R) =>
  runInDurableObject(
    env.DIRECTORY.get(env.DIRECTORY.idFromName(`test:oauth-registrations-${Date.now()}-${seq++}`)),
    (_i, state) => run(new OAuthRegistrations(state.storage.sql)),
  );

describe("oauth registrations: the caps", () => {
  it(`admits ${PER_WINDOW} in a window, then says when the oldest leaves it`, async () => {
    await withRegistrations((r) => {
      for (let i = 0; i < PER_WINDOW; i++) expect(r.take(T0 + i * 1000, LIFE).ok).toBe(true);
      const now = T0 + PER_WINDOW * 1000;
      expect(r.take(now, LIFE)).toEqual({
        ok: false,
        reason: "pace",
        retryAfterSeconds: (T0 + WINDOW_MS - now) / 1000,
      });
      expect(r.take(T0 + WINDOW_MS, LIFE).ok).toBe(true);
    });
  });

  it("a slot given back is free again", async () => {
    await withRegistrations((r) => {
      const slots = Array.from({ length: PER_WINDOW }, () => r.take(T0, LIFE));
      expect(r.take(T0, LIFE).ok).toBe(false);
      const [first] = slots;
      if (!first?.ok) throw new Error("no slot");
      r.giveBack(first.id);
      expect(r.take(T0, LIFE).ok).toBe(true);
    });
  });

  it(`holds ${MAX_REGISTRATIONS} alive at most, until the oldest record's lifetime ends`, async () => {
    await withRegistrations((r) => {
      // Spread over time, so the pace never binds.
      const step = WINDOW_MS / PER_WINDOW + 1;
      for (let i = 0; i < MAX_REGISTRATIONS; i++) expect(r.take(T0 + i * step, LIFE).ok).toBe(true);
      const now = T0 + MAX_REGISTRATIONS * step;
      expect(r.take(now, LIFE)).toEqual({
        ok: false,
        reason: "full",
        retryAfterSeconds: Math.ceil((T0 + LIFE - now) / 1000),
      });
      expect(r.take(T0 + LIFE, LIFE).ok).toBe(true);
    });
  });
});
