/**
 * Dynamic client registration through `POST /oauth/register` behind its caps and lifetimes
 * (`src/assistants/oauth/directory-registrations.ts`, `src/assistants/oauth/registration.ts`): a
 * file of its own, since the counts are the gateway's, so another test's registrations would share
 * them. The tests run in order: each moves the clock past what the ones before left.
 */
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import {
  MAX_UNUSED,
  PER_ADDRESS_PER_WINDOW,
  UNUSED_LIFETIME_MS,
  WINDOW_MS,
} from "../../../src/assistants/oauth/directory-registrations";
import { restoreClock, skipAhead } from "../../helpers/clock";
import { fresh, gw, tenant } from "../../helpers/gateway";
import {
  authorizeQuery,
  clientId,
  codeOf,
  openApproval,
  pkce,
  postApproval,
  register,
} from "../../helpers/oauth";

afterEach(restoreClock);

/** The gateway's one directory object, which holds the registrations' rows. */
const directory = () => env.DIRECTORY.get(env.DIRECTORY.idFromName("tenants"));

/** The status of `GET /oauth/authorize` for `id` (a refused client gets a page, no redirect). */
async function authorizeStatus(id: string): Promise<number> {
  const { challenge } = await pkce();
  const res = await gw(`/oauth/authorize?${authorizeQuery({ clientId: id, challenge })}`, {
    redirect: "manual",
  });
  await res.body?.cancel();
  return res.status;
}

/** The never-approved registrations the directory holds alive now. */
const unusedAlive = () =>
  runInDurableObject(
    directory(),
    (_i, state) =>
      state.storage.sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM oauth_registrations WHERE used_at IS NULL AND expires_at > ?",
          Date.now(),
        )
        .one().n,
  );

describe("oauth registration: per address", () => {
  it(`20 registrations from one address: ${PER_ADDRESS_PER_WINDOW} admitted, then 429 for that address alone; another address and a refused registration are unaffected`, async () => {
    const from = (ip: string) => ({ "cf-connecting-ip": ip });
    // A registration the server refuses gives its row back: it counts for nothing.
    for (let i = 0; i < 5; i++)
      expect(
        (await register({ redirect_uris: ["http://app.example/cb"] }, from("198.51.100.1"))).res
          .status,
      ).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await register({}, from("198.51.100.1"))).res.status);
    expect(statuses).toEqual([
      ...Array<number>(PER_ADDRESS_PER_WINDOW).fill(201),
      ...Array<number>(20 - PER_ADDRESS_PER_WINDOW).fill(429),
    ]);
    const over = await register({}, from("198.51.100.1"));
    expect(over.res.status).toBe(429);
    expect(over.res.headers.get("content-type")).toContain("application/problem+json");
    const retry = Number(over.res.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(String(over.body.detail)).toContain(
      `at most ${PER_ADDRESS_PER_WINDOW} in 10 minutes, counted per address`,
    );
    expect((await register({}, from("203.0.113.5"))).res.status).toBe(201);
    expect((await register()).res.status).toBe(201);
    await skipAhead(retry * 1000);
    expect((await register({}, from("198.51.100.1"))).res.status).toBe(201);
  });
});

describe("oauth registration: lifetimes", () => {
  it("after the unused lifetime, the alarm deletes a never-approved registration (refused at /oauth/authorize) and keeps an approved one", async () => {
    await fresh();
    const t = await tenant();
    const [unused, approved] = [await clientId(), await clientId()];
    const { challenge } = await pkce();
    const page = await openApproval({ clientId: approved, challenge });
    codeOf(
      await postApproval(page, { decision: "approve", gatewayKey: t.gatewayKey, scope: "read" }),
    );
    expect(await authorizeStatus(unused)).toBe(200);
    await skipAhead(UNUSED_LIFETIME_MS + 1000);
    expect(await runDurableObjectAlarm(directory())).toBe(true);
    expect(await authorizeStatus(unused)).toBe(400);
    expect(await authorizeStatus(approved)).toBe(200);
  });

  it(`when ${MAX_UNUSED} never-approved registrations are alive, the oldest is evicted (refused at /oauth/authorize) and the new one gets 201; an approved one stays`, async () => {
    // Past every earlier registration's end and window: the alarm ends them all.
    await skipAhead(UNUSED_LIFETIME_MS + WINDOW_MS);
    for (let i = 0; i < 10 && (await runDurableObjectAlarm(directory())); i++);
    expect(await unusedAlive()).toBe(0);
    const used = await clientId();
    expect(await directory().useRegistration(used)).toBe(true);
    const oldest = await clientId();
    // Out of the pace's window, then the rest of the cap filled with newer rows.
    await skipAhead(WINDOW_MS + 1000);
    await runInDurableObject(directory(), (_i, state) => {
      const sql = state.storage.sql;
      const { at } = sql
        .exec<{ at: number }>("SELECT at FROM oauth_registrations WHERE client_id = ?", oldest)
        .one();
      for (let i = 1; i < MAX_UNUSED; i++)
        sql.exec(
          "INSERT INTO oauth_registrations (at, expires_at, client_id) VALUES (?, ?, ?)",
          at + 1,
          at + 1 + UNUSED_LIFETIME_MS,
          `filler-${i}`,
        );
    });
    expect(await unusedAlive()).toBe(MAX_UNUSED);
    const newest = await clientId();
    expect(await authorizeStatus(oldest)).toBe(400);
    expect(await authorizeStatus(newest)).toBe(200);
    expect(await authorizeStatus(used)).toBe(200);
    expect(await unusedAlive()).toBe(MAX_UNUSED);
  });
});
