/**
 * The operator's own calls to the API for a tenant are rows of its request log, caller `console`
 * (`src/request-log/upstream.ts`): the mapping check's reads of the chart of accounts and the
 * VAT codes, from the admin API and the console's form, and offboarding.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { follow, signIn } from "../helpers/console";
import { ADMIN, fresh, gw, json, tenant } from "../helpers/gateway";

beforeEach(() => fresh());

interface Row {
  method: string;
  path: string;
  status: number;
  apiStatus: number | null;
  apiError: string | null;
  caller: { kind: string; id: string | null };
}

const rows = async (client: string): Promise<Row[]> => {
  const res = await gw(`/admin/tenants/demo/${client}/requests?limit=200`, { headers: ADMIN });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { requests: Row[] }).requests;
};
/** The rows of the operator's calls, oldest first, without the bundle's own read of the id. */
const consoleRows = async (client: string) =>
  (await rows(client))
    .filter((r) => r.caller.kind === "console" && r.caller.id !== "client-id")
    .reverse();

describe("console calls: logged", () => {
  it("the admin API's mapping check: its reads of the chart and the VAT codes, as the console's", async () => {
    const t = await tenant();
    const res = await gw(
      `/admin/tenants/demo/${t.client}/order-mapping`,
      json({ settlementAccount: 1900, vat: { "25": { salesAccount: 3000 } } }, "PUT", ADMIN),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const logged = await consoleRows(t.client);
    expect(logged.map((r) => `${r.method} ${r.path} ${r.status}`).sort()).toEqual([
      "GET /GeneralLedgerAccounts 200",
      "GET /VatCodes 200",
    ]);
    for (const r of logged) expect(r.caller).toEqual({ kind: "console", id: "mapping-check" });
  });

  it("the console's mapping form: the reads it made are logged, and cached reads are not", async () => {
    const t = await tenant();
    const s = await signIn();
    const post = (fields: Record<string, string>) =>
      s.post(`/console/tenants/demo/${t.client}/order-mapping`, fields);
    await follow(s, await post({ settlementAccount: "1921" }));
    // The second save's chart comes from the reference cache: no call, no row.
    await follow(s, await post({ settlementAccount: "1920" }));
    // The form sends the settlement on, so the first save read the VAT codes too (VAT code 0).
    expect((await consoleRows(t.client)).map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      "GET /GeneralLedgerAccounts",
      "GET /VatCodes",
    ]);
  });

  it("offboarding the API refuses: the tenant stays, its log shows the call with the API's error", async () => {
    await fresh({
      faults: [{ kind: "error", target: "api", status: 500, path: "/Offboarding", count: 1 }],
    });
    const t = await tenant();
    const res = await gw(`/admin/tenants/demo/${t.client}?offboard=true`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(res.status).toBe(502);
    expect(await consoleRows(t.client)).toEqual([
      expect.objectContaining({
        method: "DELETE",
        path: "/Offboarding/RemoveIntegration",
        status: 500,
        apiStatus: 500,
        apiError: expect.stringContaining("injected fault"),
        caller: { kind: "console", id: "offboarding" },
      }),
    ]);
  });
});
