/**
 * The support bundle names the client by the API's own id (`src/request-log/api-client.ts`):
 * `ClientId` of `GET /ClientIntegrationInformation`, read once, when a bundle is first built, and
 * stored with the tenant until its client key is replaced. Never the client key.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { signIn } from "../helpers/console";
import { ADMIN, control, fresh, gw, json, stats, tenant } from "../helpers/gateway";
import { v2 } from "../helpers/request-log";

beforeEach(() => fresh());

interface Row {
  method: string;
  path: string;
  status: number;
  apiStatus: number | null;
  caller: { kind: string; id: string | null };
  supportBundle: string;
}
type Page = { requests: Row[]; next: string | null; recording: string };

/** One listing of the tenant's log, and the upstream calls it cost (the sandbox's count). */
async function listed(client: string): Promise<{ page: Page; calls: number }> {
  const before = (await stats()).requests;
  const res = await gw(`/admin/tenants/demo/${client}/requests`, { headers: ADMIN });
  expect(res.status, await res.clone().text()).toBe(200);
  const page = (await res.json()) as Page;
  return { page, calls: (await stats()).requests - before };
}

const clientIdReads = (p: Page) =>
  p.requests.filter((r) => r.method === "GET" && r.path === "/ClientIntegrationInformation");

describe("support bundle: the API's client id", () => {
  it("names the client id and name the API answers, read with one upstream call, once", async () => {
    const t = await tenant();
    expect((await v2(t.gatewayKey, "/Customers/987654321")).status).toBe(404);

    const first = await listed(t.client);
    expect(first.calls).toBe(1);
    const [failed] = first.page.requests;
    expect(failed?.supportBundle).toContain(`Client id: ${t.clientId} (Test AS)`);
    expect(failed?.supportBundle).toContain(`Gateway tenant: ${t.name}`);
    expect(failed?.supportBundle).not.toContain(t.clientKey);
    expect(first.page.recording).toBe("calls");

    // Stored with the tenant: the next listings read nothing, and show the read as the console's.
    const second = await listed(t.client);
    const third = await listed(t.client);
    expect([second.calls, third.calls]).toEqual([0, 0]);
    expect(clientIdReads(third.page)).toEqual([
      expect.objectContaining({ status: 200, caller: { kind: "console", id: "client-id" } }),
    ]);
    for (const r of third.page.requests)
      expect(r.supportBundle).toContain(`Client id: ${t.clientId} (Test AS)`);
  });

  it("reads nothing while the log is empty: no bundle, no read", async () => {
    const t = await tenant();
    const { page, calls } = await listed(t.client);
    expect([page.requests.length, calls]).toEqual([0, 0]);
  });

  it("a read the API refuses stores nothing; the bundle says so, and the next listing reads again", async () => {
    await fresh({
      faults: [
        {
          kind: "error",
          target: "api",
          status: 500,
          path: "/ClientIntegrationInformation",
          count: 1,
        },
      ],
    });
    const t = await tenant();
    expect((await v2(t.gatewayKey, "/Customers")).status).toBeLessThan(300);
    const first = await listed(t.client);
    expect(first.calls).toBe(1);
    expect(first.page.requests[0]?.supportBundle).toContain("Client id: not known yet");
    const second = await listed(t.client);
    expect(second.calls).toBe(1);
    expect(clientIdReads(second.page).map((r) => r.apiStatus)).toEqual([500]);
    expect(second.page.requests[0]?.supportBundle).toContain(`Client id: ${t.clientId}`);
    expect((await listed(t.client)).calls).toBe(0);
  });

  it("forgets the id when the client key is replaced, and names the new key's client next", async () => {
    const t = await tenant();
    await v2(t.gatewayKey, "/Customers");
    expect((await listed(t.client)).page.requests[0]?.supportBundle).toContain(t.clientId);
    const other = await control<{ clientId: string; clientKey: string }>(
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
    await v2(t.gatewayKey, "/Customers");
    const after = await listed(t.client);
    expect(after.calls).toBe(1);
    expect(after.page.requests[0]?.supportBundle).toContain(
      `Client id: ${other.clientId} (Other AS)`,
    );
    expect(JSON.stringify(after.page)).not.toContain(t.clientId);
  });

  it("the console's requests page shows the bundle with the client id", async () => {
    const t = await tenant();
    const missing = await v2(t.gatewayKey, "/Customers/987654321");
    const operator = await signIn();
    const page = await operator.page(`/console/tenants/demo/${t.client}/requests`);
    expect(page).toContain(missing.headers.get("x-request-id"));
    expect(page).toMatch(new RegExp(`<textarea[^>]*readonly[^>]*>Client id: ${t.clientId} `));
  });
});
