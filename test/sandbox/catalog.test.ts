/**
 * Walks the catalog: every method and path of API v2 is served for an authorized client (never a
 * route-level 404, 405 or 501) and refused with 403 for an integration that holds none of its
 * privileges.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOG, type Operation } from "../../shared/v2/catalog";
import { fresh, session } from "./helpers";

/** A request for `op` with placeholder parameters and a body of the right kind (its content may be refused; the route may not). */
function requestFor(op: Operation): [string, RequestInit] {
  const path = op.path.replace(/\{[^}]+\}/g, "1");
  const init: RequestInit = { method: op.method };
  if (op.body === "json") init.body = "{}";
  if (op.body === "json-patch") init.body = JSON.stringify([{ op: "test", path: "/Name", value: "x" }]);
  if (op.body === "json" || op.body === "json-patch") init.headers = { "content-type": op.body === "json" ? "application/json" : "application/json-patch+json" };
  if (op.body === "multipart") {
    const form = new FormData();
    form.set("file", new File([new TextEncoder().encode("%PDF-1.4\n%%EOF")], "a.pdf", { type: "application/pdf" }));
    init.body = form;
  }
  return [path, init];
}

/** A route that does not exist answers with this title; a resource that does not exist says "Object(s) not found". */
async function servedBy(res: Response): Promise<boolean> {
  if ([405, 501].includes(res.status)) return false;
  if (res.status !== 404) return true;
  const body = (await res.json().catch(() => ({}))) as { title?: string };
  return body.title !== "Not Found";
}

describe("catalog", () => {
  beforeAll(() => fresh());

  it(`serves every one of the ${CATALOG.length} operations for an authorized client`, async () => {
    const s = await session("demo");
    const unserved: string[] = [];
    for (const op of CATALOG) {
      const [path, init] = requestFor(op);
      const res = await s.api(path, init);
      if (!(await servedBy(res))) unserved.push(`${op.key} → ${res.status}`);
    }
    expect(unserved).toEqual([]);
    expect(CATALOG.length).toBeGreaterThanOrEqual(245);
  });

  it("refuses every operation that needs a privilege with 403 when the integration holds none", async () => {
    const s = await session("production", { privileges: [], subscriptions: ["Accounting", "Payroll"] });
    const wrong: string[] = [];
    for (const op of CATALOG) {
      const [path, init] = requestFor(op);
      const res = await s.api(path, init);
      const expected = op.privileges.length > 0;
      if ((res.status === 403) !== expected) wrong.push(`${op.key} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("matches paths case-insensitively and prefers literal segments over parameters", async () => {
    const s = await session("demo");
    expect((await s.api("/customers")).status).toBe(204);
    expect((await s.api("/SALESORDERS/SENTSTATE")).status).toBe(204);
    expect((await s.api("/SalesOrders/sentState")).status).toBe(204);
    expect((await s.api("/Employees/Employments")).status).toBe(204);
    const wrongMethod = await s.api("/VatCodes", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const nowhere = await s.api("/NoSuchThing");
    expect(nowhere.status).toBe(404);
    expect(await nowhere.json()).toMatchObject({ title: "Not Found" });
  });
});
