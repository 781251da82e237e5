/**
 * `REQUEST_LOG` (`src/kernel/config.ts`), the operator's switch: `counters` keeps the counters and
 * no row (no call data stored), `off` writes nothing after a call; the requests page says which.
 * The Worker's bindings are stood in for per request, so one file runs all three.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { signIn } from "../helpers/console";
import { ADMIN, fresh, gw, json, tenant } from "../helpers/gateway";
import { logged, v2 } from "../helpers/request-log";

beforeEach(() => fresh());

const OFF = { ...env, REQUEST_LOG: "off" };
const COUNTERS = { ...env, REQUEST_LOG: "counters" };

/** The tenant's rows and what the page says is recorded, as a Worker with `bindings` answers. */
async function page(client: string, bindings: typeof env = env) {
  const res = await logged(`/admin/tenants/demo/${client}/requests`, { headers: ADMIN }, bindings);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { requests: { path: string }[]; recording: string };
}

const upstreamCalls = async (name: string) => {
  const res = await gw("/admin/tenants", { headers: ADMIN });
  const { tenants } = (await res.json()) as {
    tenants: { tenant: string; callCounters: { upstreamCalls: number } }[];
  };
  return tenants.find((t) => t.tenant === name)?.callCounters.upstreamCalls;
};

describe("request log switch", () => {
  it("off: a /v2 call and the operator's mapping check leave no row and move no counter", async () => {
    const t = await tenant();
    expect((await v2(t.gatewayKey, "/Customers/987654321", {}, OFF)).status).toBe(404);
    const saved = await logged(
      `/admin/tenants/demo/${t.client}/order-mapping`,
      json({ settlementAccount: 1900 }, "PUT", ADMIN),
      OFF,
    );
    expect(saved.status, await saved.clone().text()).toBe(200);
    const seen = await page(t.client, OFF);
    expect(seen).toEqual({ requests: [], next: null, recording: "off" });
    expect(await upstreamCalls(t.name)).toBe(0);
    // Switched back on, the next call is a row again.
    await v2(t.gatewayKey, "/Customers/987654321");
    expect((await page(t.client)).requests.map((r) => r.path)).toEqual(["/Customers/987654321"]);
  });

  it("counters: the counters move, no row is stored, and the console says why the page is empty", async () => {
    const t = await tenant();
    await v2(t.gatewayKey, "/Customers", {}, COUNTERS);
    await v2(t.gatewayKey, "/Customers/987654321", {}, COUNTERS);
    expect(await page(t.client, COUNTERS)).toMatchObject({ requests: [], recording: "counters" });
    expect(await upstreamCalls(t.name)).toBe(2);
    expect((await page(t.client)).recording).toBe("calls");
    const operator = await signIn();
    const html = await (
      await logged(
        `/console/tenants/demo/${t.client}/requests`,
        { headers: { cookie: operator.cookie } },
        COUNTERS,
      )
    ).text();
    expect(html).toContain("REQUEST_LOG=counters");
  });
});
