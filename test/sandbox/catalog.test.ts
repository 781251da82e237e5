/**
 * Walks the catalog: every method and path of API v2, the published document's and the newer ones
 * with unpublished shapes, is served for an authorized client (never a route-level 404, 405 or 501)
 * and refused with 403 for an integration that holds none of its privileges; every answer of an
 * unpublished-shape operation says so in `X-Sandbox-Shape`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CATALOG } from "../../shared/v2/catalog";
import { fresh, session } from "./helpers";
import { requestFor, servedBy } from "./walk";

/** The operations of the published document (March 2025). */
const PUBLISHED = 245;

/**
 * Whether the answer's `X-Sandbox-Shape` matches what the catalog says of the operation's shapes.
 */
const marked = (res: Response, unpublished: boolean) =>
  (res.headers.get("x-sandbox-shape") === "unpublished") === unpublished;

describe("catalog", () => {
  beforeAll(() => fresh());

  it(`serves every one of the ${CATALOG.length} operations for an authorized client`, async () => {
    const s = await session("demo");
    const unserved: string[] = [];
    for (const op of CATALOG) {
      const [path, init] = requestFor(op);
      const res = await s.api(path, init);
      if (!(await servedBy(res)) || !marked(res, op.shape === "unpublished"))
        unserved.push(`${op.key} → ${res.status}`);
    }
    expect(unserved).toEqual([]);
    // The published document's operations, and the seed's name for the supplier balances.
    expect(CATALOG.filter((op) => op.shape === "published").length).toBe(PUBLISHED + 1);
    expect(CATALOG.filter((op) => op.shape === "unpublished").length).toBe(67);
  });

  it("refuses every operation that needs a privilege with 403 when the integration holds none", async () => {
    const s = await session("production", {
      privileges: [],
      subscriptions: ["Accounting", "Payroll"],
    });
    const wrong: string[] = [];
    for (const op of CATALOG) {
      const [path, init] = requestFor(op);
      const res = await s.api(path, init);
      const expected = op.privileges.length > 0;
      if ((res.status === 403) !== expected || !marked(res, op.shape === "unpublished"))
        wrong.push(`${op.key} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it("gives the operations with unpublished shapes no body schema, so the gateway passes their JSON unchecked (PATCH stays JSON Patch)", () => {
    const unpublished = CATALOG.filter((op) => op.shape === "unpublished");
    expect(
      unpublished.filter((op) => op.method !== "PATCH" && op.schema !== null).map((op) => op.key),
    ).toEqual([]);
    expect(
      unpublished
        .filter((op) => op.method === "PATCH" && op.body !== "json-patch")
        .map((op) => op.key),
    ).toEqual([]);
    expect(unpublished.filter((op) => op.method === "POST").map((op) => op.body)).not.toContain(
      undefined,
    );
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
