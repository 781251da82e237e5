/**
 * What an unauthenticated caller can make the gateway do (issue 23): bodies read before any
 * credential is checked stop at a byte cap (413, counted), the onboarding callback refuses a
 * malformed or unknown state before the one `Directory` object pays for it, and a webhook's event
 * id is stored only for a delivery that changed something. Work is counted in calls and stored
 * rows, never in time.
 */
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { randomSecret } from "../../../src/kernel/crypto";
import { directoryStub, tenantStub } from "../../../src/kernel/stubs";
import { corpus as shopifyCorpus, shopifyCancelled } from "../../fixtures/orders/shopify";
import { sign } from "../../fixtures/orders/sign";
import { OPERATOR_TOKEN, signIn } from "../../helpers/console";
import { gw } from "../../helpers/gateway";
import { shopTenant } from "../../helpers/orders";

/** The binding's limit (wrangler.toml `INBOUND_LIMIT`). */
const LIMIT = 20;
/** Attempts before a 429 must have come (the local limiter's minute windows; see inbound-limit). */
const MOST_ATTEMPTS = 2 * LIMIT + 1;
const MIB = 1024 * 1024;

/** Addresses no other test uses (TEST-NET-2), one after another from a random start. */
let next = Math.floor(Math.random() * 200);
const address = () => `198.51.100.${next++}`;

/**
 * A body of `total` bytes that counts what the gateway pulled from it: form text `prefix` and then
 * `a`s, in 64 KiB chunks, with no Content-Length (a chunked upload, which no header check sees).
 */
function countedBody(total: number, prefix = "") {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (counter.pulled >= total) return ctrl.close();
      const bytes =
        counter.pulled === 0 ? new TextEncoder().encode(prefix.padEnd(chunk.length, "a")) : chunk;
      counter.pulled += bytes.byteLength;
      ctrl.enqueue(bytes);
    },
  });
  return { stream, counter };
}

describe("pre-auth bodies: a byte cap, streamed", () => {
  it("a 4 MiB sign-in body answers 413 without being parsed, and the 413s are counted", async () => {
    const ip = address();
    // A right token up front: had the form been parsed, this would sign in.
    const { stream, counter } = countedBody(4 * MIB, `token=${OPERATOR_TOKEN}&pad=`);
    const res = await gw("/console/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
      body: stream,
      redirect: "manual",
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("set-cookie")).toBeNull();
    const problem = (await res.json()) as { type: string; detail: string };
    expect(problem.type).toBe("https://ledgergate.dev/problems/payload-too-large");
    expect(problem.detail).toMatch(/16384 bytes/);
    expect(counter.pulled).toBeLessThan(MIB);
    // Counted by the limiter, like a wrong token: the address is refused once over.
    const statuses: number[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++) {
      const again = await gw("/console/sign-in", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "cf-connecting-ip": ip },
        body: countedBody(64 * 1024).stream,
      });
      statuses.push(again.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 413)).toBe(true);
  });

  it("a JSON or text body to a form answers 415, never 500; on the operator's routes it is counted", async () => {
    for (const type of ["application/json", "text/plain"]) {
      const body = type === "application/json" ? JSON.stringify({ token: "x" }) : "token=x";
      for (const path of ["/console/sign-in", "/oauth/authorize"]) {
        const res = await gw(path, {
          method: "POST",
          headers: {
            "content-type": type,
            "cf-connecting-ip": address(),
            origin: "https://gateway.test",
          },
          body,
        });
        expect(res.status, `${type} to ${path}`).toBe(415);
      }
    }
    const ip = address();
    const statuses: number[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++) {
      const res = await gw("/console/sign-in", {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": ip },
        body: "{}",
      });
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 415)).toBe(true);
  });

  it("a console form post is capped the same way, however it is framed", async () => {
    const session = await signIn();
    const { stream, counter } = countedBody(4 * MIB, `csrf=${session.csrf}&pad=`);
    const res = await gw("/console/onboarding", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: session.cookie,
        "cf-connecting-ip": address(),
      },
      body: stream,
      redirect: "manual",
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(counter.pulled).toBeLessThan(MIB);
  });
});

/** Counts the calls `method` of the Directory object gets until `restore()`. */
async function countDirectoryCalls(method: "takeOnboardingState") {
  const counted = { calls: 0, restore: () => {} };
  await runInDurableObject(directoryStub(env), (instance: object) => {
    const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
    const original = proto[method] as (...args: unknown[]) => unknown;
    proto[method] = function counting(this: unknown, ...args: unknown[]) {
      counted.calls++;
      return original.apply(this, args);
    };
    counted.restore = () => {
      proto[method] = original;
    };
  });
  return counted;
}

describe("onboarding callback: refused before the Directory", () => {
  let counted: Awaited<ReturnType<typeof countDirectoryCalls>> | null = null;
  afterEach(() => counted?.restore());

  it("a malformed state is a 400 page that never reaches the Directory", async () => {
    counted = await countDirectoryCalls("takeOnboardingState");
    for (const state of ["nope", "x".repeat(42), `${"a".repeat(42)}!`, "a".repeat(44)]) {
      const res = await gw(`/onboarding/callback?state=${encodeURIComponent(state)}&token=x`, {
        headers: { "cf-connecting-ip": address() },
      });
      expect(res.status, state).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    }
    expect(counted.calls).toBe(0);
  });

  it("unknown states are counted per address; once over, they are refused before the Directory", async () => {
    counted = await countDirectoryCalls("takeOnboardingState");
    const ip = address();
    const statuses: number[] = [];
    for (let i = 0; i < MOST_ATTEMPTS && !statuses.includes(429); i++)
      statuses.push(
        (
          await gw(`/onboarding/callback?state=${randomSecret(32)}&token=x`, {
            headers: { "cf-connecting-ip": ip },
          })
        ).status,
      );
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.length).toBeGreaterThan(LIMIT);
    const reached = counted.calls;
    for (let i = 0; i < 10; i++)
      expect(
        (
          await gw(`/onboarding/callback?state=${randomSecret(32)}&token=x`, {
            headers: { "cf-connecting-ip": ip },
          })
        ).status,
      ).toBe(429);
    expect(counted.calls).toBe(reached);
  });
});

const shop = shopifyCorpus().find((c) => c.currency === "NOK");
if (!shop) throw new Error("empty corpus");

/** The rows of the tenant's remembered webhook deliveries. */
async function deliveryRows(name: `demo:${string}`): Promise<number> {
  return runInDurableObject(tenantStub(env, name), (_instance, state) => {
    const row = state.storage.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries")
      .one();
    return row.n;
  });
}

describe("webhooks: replays are never stored", () => {
  it("forty deliveries with fresh event ids and no valid signature store no row", async () => {
    const t = await shopTenant();
    const before = await deliveryRows(t.name as `demo:${string}`);
    for (let i = 0; i < 40; i++) {
      const forged = await sign(
        "shopify",
        shopifyCancelled({ ...shop.payload, id: 9_700_000 + i }),
        "not-the-tenants-secret-0123",
        { topic: "orders/cancelled", eventId: crypto.randomUUID() },
      );
      expect((await t.deliver("shopify", forged.headers, forged.body)).status).toBe(401);
    }
    expect(await deliveryRows(t.name as `demo:${string}`)).toBe(before);
  });

  it("a captured genuine delivery replayed forty times with fresh event ids adds no row after the first", async () => {
    const t = await shopTenant();
    const payload = shopifyCancelled({ ...shop.payload, id: 9_710_000 });
    const first = await sign("shopify", payload, undefined, { topic: "orders/cancelled" });
    expect((await t.deliver("shopify", first.headers, first.body)).status).toBe(202);
    const after = await deliveryRows(t.name as `demo:${string}`);
    for (let i = 0; i < 40; i++) {
      // The event id header is outside Shopify's signature: a replay can carry any.
      const replay = { ...first.headers, "X-Shopify-Event-Id": crypto.randomUUID() };
      const res = await t.deliver("shopify", replay, first.body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ intake: "duplicate" });
    }
    expect(await deliveryRows(t.name as `demo:${string}`)).toBe(after);
  });
});
