/**
 * `/v2` calls the catalog does not know (`src/v2/operation.ts`): refused by the gateway with
 * its own 404 or 405, after the key is checked, with nothing sent and no permit spent, unless the
 * operator (`V2_EXTRA_OPERATIONS`) or the caller (`X-Ledgergate-Uncataloged: pass`) lets them
 * through.
 */
import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import app from "../../src/index";
import type { Bindings } from "../../src/kernel/config";
import { fresh, gw, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

const GOVERNOR = env.RATE_GOVERNOR;

/** Permits the demo environment's governor has granted `tenantName`. */
async function permits(tenantName: string): Promise<number> {
  const counters = await GOVERNOR.get(GOVERNOR.idFromName("demo")).counters();
  return counters[tenantName]?.permits ?? 0;
}

interface ProblemAnswer {
  type: string;
  detail: string;
  requestId: string;
}

/** What `call` cost upstream: requests the sandbox saw, permits the tenant was granted. */
async function spent(tenantName: string, call: () => Promise<unknown>) {
  const [requests, granted] = [(await stats()).requests, await permits(tenantName)];
  await call();
  return {
    requests: (await stats()).requests - requests,
    permits: (await permits(tenantName)) - granted,
  };
}

describe("v2 catalog: unknown operations are the gateway's own answers", () => {
  it("a misspelt path is a 404 problem with a did-you-mean: nothing sent, no permit, no API root", async () => {
    const t = await tenant();
    let res: Response | undefined;
    const cost = await spent(t.name, async () => (res = await t.v2("/Custmers")));
    expect(cost).toEqual({ requests: 0, permits: 0 });
    expect(res?.status).toBe(404);
    expect(res?.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res?.json()) as ProblemAnswer;
    expect(body.type).toBe("https://ledgergate.dev/problems/not-found");
    expect(body.requestId).toBe(res?.headers.get("x-request-id"));
    expect(body.detail).toContain("GET /v2/Custmers");
    expect(body.detail).toContain("Did you mean /v2/Customers?");
    expect(body.detail).not.toContain("/Demo/");
  });

  it("suggests with the caller's own ids, and nothing when no operation is close", async () => {
    const t = await tenant();
    const near = (await (await t.v2("/SalesOrders/7/Linez")).json()) as ProblemAnswer;
    expect(near.detail).toContain("Did you mean /v2/SalesOrders/7/Lines?");
    const far = await t.v2("/Zebrafish/Stripes");
    expect(far.status).toBe(404);
    expect(((await far.json()) as ProblemAnswer).detail).not.toContain("Did you mean");
    expect((await t.v2("/")).status).toBe(404);
  });

  it("a method the path does not take is a 405 with Allow, nothing sent", async () => {
    const t = await tenant();
    let res: Response | undefined;
    const cost = await spent(
      t.name,
      async () => (res = await t.v2("/ClientIntegrationInformation", { method: "DELETE" })),
    );
    expect(cost).toEqual({ requests: 0, permits: 0 });
    expect(res?.status).toBe(405);
    expect(res?.headers.get("allow")).toBe("GET");
    const body = (await res?.json()) as ProblemAnswer;
    expect(body.type).toBe("https://ledgergate.dev/problems/method-not-allowed");
    expect(body.detail).toContain("GET");
  });

  it("paths are matched as the API matches them, in any casing", async () => {
    const t = await tenant();
    expect((await t.v2("/customers")).status).toBe(204);
    expect((await t.v2("/CLIENTINTEGRATIONINFORMATION")).status).toBe(200);
  });
});

describe("v2 catalog: security", () => {
  it("an unauthenticated caller learns nothing of the catalog: 401 for a known and an unknown path alike", async () => {
    for (const [path, fill] of [
      ["/v2/Custmers", "a"],
      ["/v2/Customers", "b"],
    ] as const) {
      // A well-formed key of no tenant, a new one each time (a key that failed is refused for a
      // minute with 429: tenant/door/failed-keys.ts).
      const key = `lg_demo_ghost_${fill.repeat(43)}`;
      const res = await gw(path, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as ProblemAnswer).detail).not.toContain("Customers");
    }
  });
});

describe("v2 catalog: letting an operation the catalog lacks through", () => {
  it("X-Ledgergate-Uncataloged: pass sends the call on unchanged, the API's answer comes back", async () => {
    const t = await tenant();
    let res: Response | undefined;
    const cost = await spent(
      t.name,
      async () =>
        (res = await t.v2("/Custmers", { headers: { "x-ledgergate-uncataloged": "pass" } })),
    );
    expect(cost).toEqual({ requests: 1, permits: 1 });
    expect(res?.status).toBe(404);
    // The sandbox's own 404, not the gateway's problem.
    expect(((await res?.json()) as { type?: string }).type ?? "").not.toContain("ledgergate.dev");
  });

  it("any other value of the header is a 400 naming it, nothing sent", async () => {
    const t = await tenant();
    let res: Response | undefined;
    const cost = await spent(
      t.name,
      async () =>
        (res = await t.v2("/Custmers", { headers: { "x-ledgergate-uncataloged": "yes" } })),
    );
    expect(cost).toEqual({ requests: 0, permits: 0 });
    expect(res?.status).toBe(400);
    expect(((await res?.json()) as ProblemAnswer).detail).toContain("X-Ledgergate-Uncataloged");
  });

  it("V2_EXTRA_OPERATIONS lets the listed operations through, and only those", async () => {
    const t = await tenant();
    const bindings: Bindings = {
      ...env,
      V2_EXTRA_OPERATIONS: "GET /ComingSoon/{id}, delete /ClientIntegrationInformation, bogus",
    };
    const call = (path: string, method = "GET") =>
      app.fetch(
        new Request(`https://gateway.test/v2${path}`, {
          method,
          headers: { authorization: `Bearer ${t.gatewayKey}` },
        }),
        bindings,
        createExecutionContext(),
      );
    const listed = await spent(t.name, async () => {
      expect((await call("/comingsoon/42")).status).toBe(404);
      expect((await call("/ClientIntegrationInformation", "DELETE")).status).toBe(405);
    });
    // Both reached the API (whose sandbox knows neither) and spent a permit each.
    expect(listed).toEqual({ requests: 2, permits: 2 });
    const unlisted = await spent(t.name, async () => {
      const res = await call("/ComingSoon");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    });
    expect(unlisted).toEqual({ requests: 0, permits: 0 });
  });
});
