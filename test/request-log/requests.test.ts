/**
 * The request log as operators read it (`GET /admin/tenants/{environment}/{client}/requests`,
 * `src/request-log/tenant-rows.ts`): a call made through `/v2` with its status and request id, a
 * call the API refused with the API's error and the request body, an order run's calls, filters,
 * counters that survive an eviction, a client key's replacement emptying the log, and nothing
 * secret in any of it.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpus as shopifyCorpus } from "../fixtures/orders/shopify";
import { escapeHtml, signIn } from "../helpers/console";
import { ADMIN, control, fresh, gw, json, tenant } from "../helpers/gateway";
import { shopTenant, waitFor } from "../helpers/orders";
import { v2 } from "../helpers/request-log";
import { addEndpoint } from "../helpers/events";
import { cycle } from "../helpers/watcher";

interface Logged {
  requestId: string;
  method: string;
  path: string;
  queryNames: string[];
  status: number;
  apiStatus: number | null;
  apiError: string | null;
  attempts: number;
  caller: { kind: string; id: string | null };
  requestBody: string | null;
  supportBundle: string;
}
type Page = { requests: Logged[]; next: string | null };

const requests = async (client: string, query = ""): Promise<Page> => {
  const res = await gw(`/admin/tenants/demo/${client}/requests${query}`, { headers: ADMIN });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
};

describe("request log: happy", () => {
  it("lists a /v2 call with its status and request id, and a refused one with the API's error", async () => {
    await fresh();
    const t = await tenant();
    const ok = await v2(t.gatewayKey, "/Customers?PageSize=5&secretish=qz-hush");
    expect(ok.status).toBeLessThan(300);
    const bad = await v2(
      t.gatewayKey,
      "/Customers",
      json({ Name: "No such org", OrganizationNumber: "not-a-number-at-all-0000000" }),
    );
    const missing = await v2(t.gatewayKey, "/Customers/987654321");
    expect(missing.status).toBe(404);

    const page = await requests(t.client);
    const [last, , first] = page.requests;
    expect(first).toMatchObject({
      requestId: ok.headers.get("x-request-id"),
      method: "GET",
      path: "/Customers",
      queryNames: ["PageSize", "secretish"],
      status: ok.status,
      apiStatus: ok.status,
      apiError: null,
      attempts: 1,
      requestBody: null,
    });
    expect(first?.caller).toEqual({ kind: "key", id: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(last).toMatchObject({
      requestId: missing.headers.get("x-request-id"),
      status: 404,
      apiStatus: 404,
      apiError: expect.stringContaining("404"),
    });
    expect(page.requests[1]?.requestId).toBe(bad.headers.get("x-request-id"));
    expect(last?.supportBundle).toContain("/Customers/987654321");
    expect(last?.supportBundle).toContain("Object ids: 987654321");
    // Nothing secret anywhere: no key, no query value.
    const all = JSON.stringify(page);
    expect(all).not.toContain(t.gatewayKey);
    expect(all).not.toContain(t.clientKey);
    expect(all).not.toContain("qz-hush");
  });

  it("keeps a failed write's request body, filters by status class and exact code, pages", async () => {
    await fresh({ faults: [{ kind: "error", target: "api", status: 500, count: 1 }] });
    const t = await tenant();
    const body = { Name: "Fault AS" };
    const failed = await v2(t.gatewayKey, "/Customers", json(body));
    expect(failed.status).toBe(500);
    await v2(t.gatewayKey, "/Customers/987654321");
    await v2(t.gatewayKey, "/Customers");

    const server = await requests(t.client, "?status=5xx");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ status: 500, apiStatus: 500 });
    expect(server.requests[0]?.requestBody).toBe(JSON.stringify(body));
    expect((await requests(t.client, "?status=404")).requests.map((r) => r.status)).toEqual([404]);

    // The first listing read the client's id for its bundles: a fourth call, the console's.
    const one = await requests(t.client, "?limit=1");
    expect(one.requests.map((r) => [r.path, r.caller.kind])).toEqual([
      ["/ClientIntegrationInformation", "console"],
    ]);
    expect(one.next).not.toBeNull();
    const rest = await requests(t.client, `?before=${one.next}`);
    expect(rest.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /Customers",
      "GET /Customers/987654321",
      "POST /Customers",
    ]);
  });

  it("counters survive an eviction of the objects that hold them, with the time they count from", async () => {
    // The second call's connection is dropped: a refusal (the gateway answered, the API did not).
    await fresh({ faults: [{ kind: "drop", target: "api", count: 1 }] });
    const t = await tenant();
    expect((await v2(t.gatewayKey, "/Customers")).status).toBe(502);
    await v2(t.gatewayKey, "/Customers");
    await v2(t.gatewayKey, "/Customers");
    const mine = async () => {
      const res = await gw("/admin/tenants", { headers: ADMIN });
      const { tenants } = (await res.json()) as {
        tenants: {
          tenant: string;
          counters: { tokensIssued: number; upstreamCalls: number };
          callCounters: { upstreamCalls: number; waits: number; refusals: number; since: string };
        }[];
      };
      return tenants.find((x) => x.tenant === t.name);
    };
    const before = await mine();
    expect(before?.callCounters).toMatchObject({ upstreamCalls: 3, refusals: 1 });
    expect(before?.counters.tokensIssued).toBe(1);
    expect(before?.counters.upstreamCalls).toBeGreaterThan(0);
    await evictDurableObject(env.TENANT.get(env.TENANT.idFromName(t.name)));
    await evictDurableObject(env.RATE_GOVERNOR.get(env.RATE_GOVERNOR.idFromName("demo")));
    const after = await mine();
    // Stored with the tenant: the same counts, since the same time.
    expect(after?.callCounters).toEqual(before?.callCounters);
    expect(Date.parse(after?.callCounters.since ?? "")).toBeGreaterThan(0);
    expect(after?.counters.tokensIssued).toBe(1);
    // The governor's own counters lived in its memory, and went with it.
    expect(after?.counters.upstreamCalls).toBe(0);
  });
});

describe("request log: order runs and client keys", () => {
  it("lists an order run's calls as the run's, with their statuses, once the run settled", async () => {
    await fresh();
    const t = await shopTenant();
    const order = shopifyCorpus().find((c) => typeof c.payload.email === "string");
    if (!order) throw new Error("the Shopify corpus has no order with a buyer's e-mail");
    const orderId = String(order.payload.id);
    expect((await t.send("shopify", order.payload)).status).toBe(202);
    const run = await waitFor(t, "shopify", orderId, ["settled", "failed"]);
    expect(run.state, JSON.stringify(run.error)).toBe("settled");

    const page = await requests(t.client, "?limit=200");
    const ran = page.requests.filter((r) => r.caller.kind === "order-run");
    // One row per call the steps made: nothing failed, so no step ran twice.
    const made = run.steps.reduce((n, s) => n + Number(s.result.upstreamCalls ?? 0), 0);
    expect(made).toBeGreaterThan(0);
    expect(ran).toHaveLength(made);
    // All of one run, named by its Workflow instance.
    expect(new Set(ran.map((r) => r.caller.id)).size).toBe(1);
    expect(ran[0]?.caller.id).toMatch(/^o-[0-9a-f]{40}-1$/);
    for (const r of ran) {
      expect(r.status).toBe(r.apiStatus);
      expect(r.attempts).toBeGreaterThanOrEqual(1);
    }
    expect(ran.map((r) => `${r.method} ${r.status}`)).toContain("POST 201");
    expect(ran.map((r) => r.path)).toContain("/Customers");
    // The lookup by e-mail keeps the query's names, never the buyer's address.
    expect(JSON.stringify(ran)).not.toContain(String(order.payload.email));
  });

  it("empties the log when the client key is replaced, says how many calls went, keeps the counters", async () => {
    await fresh({ faults: [{ kind: "error", target: "api", status: 500, count: 1 }] });
    const t = await tenant();
    const body = { Name: "Kari Nordmann" };
    expect((await v2(t.gatewayKey, "/Customers", json(body))).status).toBe(500);
    await v2(t.gatewayKey, "/Customers");
    const before = await requests(t.client);
    expect(before.requests).toHaveLength(2);
    expect(before.requests[1]?.requestBody).toBe(JSON.stringify(body));
    // That listing read the client's id for its bundles: the console's call, a third row.
    expect((await requests(t.client)).requests).toHaveLength(3);

    const other = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo", name: "Other AS" },
      201,
    );
    const replaced = await gw(
      `/admin/tenants/demo/${t.client}/client-key`,
      json({ clientKey: other.clientKey }, "PUT", ADMIN),
    );
    expect(replaced.status, await replaced.clone().text()).toBe(200);
    expect(await replaced.json()).toMatchObject({ cleared: { loggedCalls: 3 } });
    // The old company's failed body is gone with its row.
    expect((await requests(t.client)).requests).toEqual([]);
    const res = await gw("/admin/tenants", { headers: ADMIN });
    const { tenants } = (await res.json()) as {
      tenants: { tenant: string; callCounters: { upstreamCalls: number } }[];
    };
    expect(tenants.find((x) => x.tenant === t.name)?.callCounters.upstreamCalls).toBe(3);
    // Calls with the new key are logged as before.
    await v2(t.gatewayKey, "/Customers");
    expect((await requests(t.client)).requests).toHaveLength(1);
  });
});

describe("request log: the console", () => {
  it("shows a call and a refused call with its support bundle in a readonly textarea, and the counters", async () => {
    await fresh();
    const t = await tenant();
    const ok = await v2(t.gatewayKey, "/Customers");
    const missing = await v2(t.gatewayKey, "/Customers/987654321");
    const operator = await signIn();
    const page = await operator.page(`/console/tenants/demo/${t.client}/requests`);
    expect(page).toContain(ok.headers.get("x-request-id"));
    expect(page).toContain(missing.headers.get("x-request-id"));
    expect(page).toMatch(/<textarea[^>]*readonly[^>]*>[^<]*Object ids: 987654321/);
    // The API's own error, as the admin route lists it, is on the page (in the bundle).
    const refused = (await requests(t.client)).requests.find(
      (r) => r.requestId === missing.headers.get("x-request-id"),
    );
    const detail = (JSON.parse(refused?.apiError ?? "{}") as { detail?: string }).detail;
    expect(detail).toMatch(/987654321/);
    expect(page).toContain(`Error: ${escapeHtml(refused?.apiError ?? "")}`);
    expect(page).not.toContain(t.gatewayKey);
    const only404 = await operator.page(`/console/tenants/demo/${t.client}/requests?status=4xx`);
    expect(only404).toContain(missing.headers.get("x-request-id"));
    expect(only404).not.toContain(ok.headers.get("x-request-id"));
    const tenants = await operator.page("/console");
    expect(tenants).toContain("Counting since");
    const tenantPage = await operator.page(`/console/tenants/demo/${t.client}`);
    expect(tenantPage).toContain("Deliveries");
  });
});

describe("request log: by caller", () => {
  it("hides the watcher's calls unless asked for them; ?caller= lists one caller's only", async () => {
    const t = await tenant();
    await addEndpoint(t.gatewayKey, {
      url: `https://hooks.${t.client}.example.com/in`,
      types: ["customer.created"],
    });
    expect((await cycle(t)).lastCycle).toMatchObject({ calls: 1, outcome: "ok" });
    const mine = await v2(t.gatewayKey, "/Customers/987654321");

    const shown = (await requests(t.client)).requests;
    expect(shown.map((r) => r.caller.kind)).toEqual(["key"]);
    expect(shown[0]?.supportBundle).toContain(`Caller: key ${shown[0]?.caller.id ?? ""}`);
    const watcher = (await requests(t.client, "?caller=watcher")).requests;
    expect(watcher.map((r) => [r.caller.kind, r.path])).toEqual([["watcher", "/Customers"]]);
    const keys = (await requests(t.client, "?caller=key&status=404")).requests;
    expect(keys.map((r) => r.requestId)).toEqual([mine.headers.get("x-request-id")]);
    expect((await requests(t.client, "?caller=order-run")).requests).toEqual([]);

    const operator = await signIn();
    const page = await operator.page(`/console/tenants/demo/${t.client}/requests?caller=watcher`);
    expect(page).toContain("<td>watcher customers</td>");
    expect(page).not.toContain("<td>key ");
    expect(page).toMatch(/aria-current="page"[^>]*>watcher</);
  });
});

describe("request log: errors", () => {
  it("refuses an unknown caller, naming the callers; an unknown parameter too", async () => {
    const t = await tenant();
    const res = await gw(`/admin/tenants/demo/${t.client}/requests?caller=robot`, {
      headers: ADMIN,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const detail = JSON.stringify(await res.json());
    for (const kind of ["key", "console", "order-run", "assistant", "watcher", "events", "stripe"])
      expect(detail).toContain(kind);
    const extra = await gw(`/admin/tenants/demo/${t.client}/requests?colour=red`, {
      headers: ADMIN,
    });
    expect(extra.status).toBe(400);
  });

  it("refuses a bad status filter, an unknown tenant answers 404", async () => {
    const t = await tenant();
    for (const q of ["?status=abc", "?status=6xx", "?before=x"]) {
      const res = await gw(`/admin/tenants/demo/${t.client}/requests${q}`, { headers: ADMIN });
      expect(res.status, q).toBe(400);
    }
    const none = await gw("/admin/tenants/demo/no-such-client/requests", { headers: ADMIN });
    expect(none.status).toBe(404);
  });
});

describe("request log: security", () => {
  it("needs the operator's token", async () => {
    const t = await tenant();
    const res = await gw(`/admin/tenants/demo/${t.client}/requests`);
    expect(res.status).toBe(401);
    await control("POST", "/reset", undefined, 204);
  });
});
