/**
 * The tenant's MCP server (`src/assistants/mcp-routes.ts`, `src/assistants/mcp/`) as an assistant
 * uses it: the SDK's own `Client` over Streamable HTTP, in both protocol eras, against the gateway
 * Worker with the sandbox behind it. Tools and their annotations; `read` of one tenant's books
 * only, paged; writes in two steps, performed once and announced as events; the catalog's refusal
 * at `prepare_write`; the composite tools; and the audit (the request log's `assistant` rows, the
 * tool-call rows on the console's page).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { asOperator, tenantName } from "../../src/kernel/stubs";
import { ADMIN, fresh, gw, json, stats, tenant } from "../helpers/gateway";
import { signIn } from "../helpers/console";
import { feed } from "../helpers/events";
import { errorOf, mcpClient, structuredOf, type Era } from "../helpers/mcp";

beforeEach(() => fresh());

type Tenant = Awaited<ReturnType<typeof tenant>>;
const ERAS: Era[] = ["auto", "legacy"];

/** Upstream calls `run` makes (the sandbox's counter). */
async function calls<T>(run: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = (await stats()).requests;
  const value = await run();
  return { value, calls: (await stats()).requests - before };
}

/** A customer made through `/v2`, its id and number. */
async function customer(t: Tenant, name: string) {
  const res = await t.v2("/Customers", json({ Name: name }));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { Id: number; Number: number; Name: string };
}

const customersOf = async (t: Tenant) => {
  const res = await t.v2("/Customers");
  return res.status === 204 ? [] : ((await res.json()) as { Id: number; Name: string }[]);
};

interface ReadAnswer {
  data: unknown;
  rows: number | null;
  totalCount: number | null;
  nextCursor: string | null;
  trimmed: boolean;
  note: string;
}

describe("mcp: tools", () => {
  for (const era of ERAS)
    it(`lists every tool with its four annotations and a schema (${era})`, async () => {
      const t = await tenant();
      const client = await mcpClient(t.gatewayKey, { era });
      expect(client.getProtocolEra()).toBe(era === "auto" ? "modern" : "legacy");
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual(
        [
          "confirm_write",
          "customer_open_invoices",
          "describe_operation",
          "invoice_with_payments",
          "order_run_status",
          "prepare_write",
          "read",
          "search_operations",
        ].sort(),
      );
      for (const tool of tools) {
        const a = tool.annotations ?? {};
        for (const hint of [
          "readOnlyHint",
          "destructiveHint",
          "idempotentHint",
          "openWorldHint",
        ] as const)
          expect(typeof a[hint], `${tool.name}.${hint}`).toBe("boolean");
        expect(tool.outputSchema, tool.name).toBeDefined();
        expect(tool.description?.length, tool.name).toBeGreaterThan(40);
      }
      const byName = Object.fromEntries(tools.map((x) => [x.name, x.annotations]));
      expect(byName.confirm_write).toMatchObject({ readOnlyHint: false, idempotentHint: true });
      expect(byName.read).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      expect(byName.prepare_write).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      await client.close();
    });

  it("finds operations by words and describes one with its JSON Schema, without calling the API", async () => {
    const t = await tenant();
    const client = await mcpClient(t.gatewayKey);
    const { value, calls: made } = await calls(async () => ({
      found: await structuredOf<{
        operations: { method: string; path: string; class: string }[];
        matched: number;
      }>(client, "search_operations", { query: "send invoice sales order", limit: 5 }),
      described: await structuredOf<{
        class: string;
        body: { schema: { properties: Record<string, unknown> } };
      }>(client, "describe_operation", { method: "POST", path: "/Customers" }),
    }));
    expect(made).toBe(0);
    expect(value.found.operations[0]).toMatchObject({
      method: "POST",
      path: "/SalesOrders/{id}/createAndSendInvoice",
      class: "write",
    });
    expect(value.found.operations).toHaveLength(5);
    expect(value.found.matched).toBeGreaterThan(5);
    expect(value.described.class).toBe("draft");
    expect(Object.keys(value.described.body.schema.properties)).toContain("Name");
  });
});

describe("mcp: read", () => {
  it("reads this tenant's customers and never another's", async () => {
    const [mine, theirs] = [await tenant(), await tenant()];
    await customer(mine, "MINE Fjord AS");
    const other = await customer(theirs, "THEIRS Nord AS");
    const client = await mcpClient(mine.gatewayKey);
    const list = await structuredOf<ReadAnswer>(client, "read", { path: "/Customers" });
    expect((list.data as { Name: string }[]).map((c) => c.Name)).toEqual(["MINE Fjord AS"]);
    expect(JSON.stringify(list)).not.toContain("THEIRS");
    // Another tenant's id: the API's own 404, for this tenant's client.
    const refused = await errorOf(client, "read", { path: `/Customers/${other.Id}` });
    expect(refused).toMatch(/^The API answered 404 to GET \/Customers\//);
    expect(refused).not.toContain("THEIRS");
  });

  for (const era of ERAS)
    it(`pages a list with a cursor, saying how many rows of how many (${era})`, async () => {
      const t = await tenant();
      const lines = Array.from({ length: 130 }, (_, i) => ({
        Description: `Linje ${i + 1}`,
        Quantity: 1,
        ProductUnitPrice: i + 1,
      }));
      const { Number: CustomerNo } = await customer(t, "Fjord AS");
      const order = await t.v2(
        "/SalesOrders/Complete",
        json({ CustomerNo, SalesOrderLines: lines }),
      );
      expect(order.status).toBe(201);
      const path = `/SalesOrders/${((await order.json()) as { Id: string }).Id}/Lines`;
      const client = await mcpClient(t.gatewayKey, { era });
      // Two properties a row, so a page of 100 rows is far below the size an answer may hold.
      const query = { Fields: "Id,Description" };
      const first = await structuredOf<ReadAnswer>(client, "read", { path, query });
      expect([first.rows, first.totalCount, first.trimmed]).toEqual([100, 130, false]);
      expect(first.note).toBe(
        "Rows 1 to 100 of 130. There are more: call read again with the same path and query and nextCursor.",
      );
      const second = await structuredOf<ReadAnswer>(client, "read", {
        path,
        query,
        cursor: first.nextCursor,
      });
      expect([second.rows, second.nextCursor]).toEqual([30, null]);
      expect((second.data as { Description: string }[])[0]?.Description).toBe("Linje 101");
      expect(await errorOf(client, "read", { path, cursor: first.nextCursor })).toBe(
        "This cursor is not one of this read: pass it with the path and query it came with.",
      );
      expect(await errorOf(client, "read", { path, query: { PageSize: 500 } })).toMatch(
        /^read pages lists itself/,
      );
    });

  it("trims a page to its stated size and gives the rest by the cursor, never silently", async () => {
    const t = await tenant();
    const { Number: CustomerNo } = await customer(t, "Fjord AS");
    const long = "x".repeat(900);
    const lines = Array.from({ length: 60 }, (_, i) => ({
      Description: `${i + 1} ${long}`,
      Quantity: 1,
      ProductUnitPrice: 1,
    }));
    const order = await t.v2("/SalesOrders/Complete", json({ CustomerNo, SalesOrderLines: lines }));
    const path = `/SalesOrders/${((await order.json()) as { Id: string }).Id}/Lines`;
    const client = await mcpClient(t.gatewayKey);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let answers = 0;
    do {
      const page: ReadAnswer = await structuredOf(client, "read", { path, cursor });
      answers++;
      if (page.nextCursor && answers === 1) {
        expect(page.trimmed).toBe(true);
        expect(page.note).toContain("at most 40000 characters");
      }
      seen.push(...(page.data as { Description: string }[]).map((l) => l.Description));
      cursor = page.nextCursor;
    } while (cursor);
    expect(answers).toBeGreaterThan(1);
    expect(seen).toEqual(lines.map((l) => l.Description));
  });
});

describe("mcp: writes", () => {
  for (const era of ERAS)
    it(`prepare_write sends nothing; confirm_write creates one customer, and again returns the same id with no second write (${era})`, async () => {
      const t = await tenant();
      const client = await mcpClient(t.gatewayKey, { era });
      const prepared = await calls(() =>
        structuredOf<{ confirmation: string; preview: string; operation: { class: string } }>(
          client,
          "prepare_write",
          { method: "POST", path: "/Customers", body: { Name: "Fjord AS" } },
        ),
      );
      expect(prepared.calls).toBe(0);
      expect(await customersOf(t)).toEqual([]);
      expect(prepared.value.operation.class).toBe("draft");
      expect(prepared.value.preview).toContain('Name = "Fjord AS"');
      const confirm = () =>
        structuredOf<{ status: number; replayed: boolean; result: { Id: number } }>(
          client,
          "confirm_write",
          { confirmation: prepared.value.confirmation },
        );
      const first = await calls(confirm);
      expect(first.calls).toBe(1);
      expect([first.value.status, first.value.replayed]).toEqual([201, false]);
      // The client sends the retry with a new JSON-RPC id, as after a dropped stream.
      const again = await calls(confirm);
      expect(again.calls).toBe(0);
      expect(again.value.replayed).toBe(true);
      expect(again.value.result.Id).toBe(first.value.result.Id);
      expect((await customersOf(t)).map((c) => c.Id)).toEqual([first.value.result.Id]);
      // The write is announced as a /v2 write is, once: the replay wrote nothing to announce.
      const announced = await feed(t.gatewayKey, "&types=customer.created");
      expect(announced.map((e) => e.data.Id)).toEqual([first.value.result.Id]);
    });

  it("refuses an invalid body at prepare_write with the catalog's errors, the same /v2 gives, and sends nothing", async () => {
    const t = await tenant();
    const body = { Nme: "Fjord AS", EmailAddress: 7 };
    const v2 = await t.v2("/Customers", json(body));
    expect(v2.status).toBe(400);
    const { errors } = (await v2.json()) as { errors: { path: string; message: string }[] };
    expect(errors.length).toBeGreaterThan(1);
    const client = await mcpClient(t.gatewayKey);
    const refused = await calls(() =>
      errorOf(client, "prepare_write", { method: "POST", path: "/Customers", body }),
    );
    expect(refused.calls).toBe(0);
    expect(refused.value).toMatch(/^The request failed validation \(400\): The body failed/);
    for (const e of errors) expect(refused.value).toContain(`- ${e.path}: ${e.message}`);
    expect(await customersOf(t)).toEqual([]);
    // An operation the catalog does not have: /v2's own refusal, with the nearest path as the
    // tool takes it, and what the assistant can do: no header, which a tool's caller cannot send.
    const unknown = await errorOf(client, "prepare_write", {
      method: "POST",
      path: "/Custmers",
      body: {},
    });
    expect(unknown).toMatch(
      /^Not found \(404\): POST \/Custmers is not an operation .* Did you mean \/Customers\? .*search_operations/,
    );
    expect(unknown).not.toMatch(/X-Ledgergate-Uncataloged|\/v2/i);
    const unread = await errorOf(client, "read", { path: "/ClientIntegrationInformatio" });
    expect(unread).toContain("Did you mean /ClientIntegrationInformation?");
    expect(unread).not.toMatch(/header|X-Ledgergate-Uncataloged/i);
  });

  it("changes a record with a merge patch, and refuses an unknown confirmation", async () => {
    const t = await tenant();
    const c = await customer(t, "Fjord AS");
    const client = await mcpClient(t.gatewayKey);
    const { confirmation, changes } = await structuredOf<{
      confirmation: string;
      changes: { field: string; value: string }[];
    }>(client, "prepare_write", {
      method: "PATCH",
      path: `/Customers/${c.Id}`,
      body: { Name: "Fjord Kaffe AS" },
    });
    expect(changes).toEqual([{ field: "Name", value: '"Fjord Kaffe AS"' }]);
    await structuredOf(client, "confirm_write", { confirmation });
    expect((await customersOf(t)).map((x) => x.Name)).toEqual(["Fjord Kaffe AS"]);
    const unknown = `cw_${"A".repeat(24)}`;
    expect(await errorOf(client, "confirm_write", { confirmation: unknown })).toMatch(
      /^No write prepared on this connection has this confirmation/,
    );
  });
});

describe("mcp: audit", () => {
  it("logs a tool's calls as the assistant's, and each tool call on the console's requests page", async () => {
    const t = await tenant();
    const client: Client = await mcpClient(t.gatewayKey);
    await structuredOf(client, "read", { path: "/Customers" });
    const { confirmation } = await structuredOf<{ confirmation: string }>(client, "prepare_write", {
      method: "POST",
      path: "/Customers",
      body: { Name: "Fjord AS" },
    });
    const done = await structuredOf<{ idempotencyKey: string }>(client, "confirm_write", {
      confirmation,
    });
    const res = await gw(`/admin/tenants/demo/${t.client}/requests`, { headers: ADMIN });
    const { requests } = (await res.json()) as {
      requests: {
        method: string;
        path: string;
        requestId: string;
        caller: { kind: string; id: string };
      }[];
    };
    expect(requests.map((r) => `${r.method} ${r.path} ${r.caller.kind}`)).toEqual([
      "POST /Customers assistant",
      "GET /Customers assistant",
    ]);
    for (const r of requests) {
      expect(r.caller.id).toMatch(/^key:[0-9a-f]{8}$/);
      expect(r.requestId).toMatch(/\.1$/);
    }
    const s = await signIn();
    const page = await s.page(`/console/tenants/demo/${t.client}/requests`);
    expect(page).toContain("Assistant tool calls");
    for (const tool of ["read", "prepare_write", "confirm_write"]) expect(page).toContain(tool);
    expect(page).toContain(done.idempotencyKey);
    expect(page).toContain("POST /Customers");
    expect(page).not.toContain(confirmation);
  });

  it("keeps no path of a read outside the catalog: its row names a fixed marker, not the path", async () => {
    const t = await tenant();
    const client: Client = await mcpClient(t.gatewayKey);
    const secret = `hush-${t.client}`;
    await errorOf(client, "read", { path: `/Nowhere/${secret}/Notes` });
    await structuredOf(client, "read", { path: "/Customers" });
    await client.close();
    // The row is written after the answer: read until both are there.
    const rows = await vi.waitFor(
      async () => {
        const calls = await asOperator(env, tenantName("demo", t.client), (f) =>
          f.toolCalls(10, null),
        );
        expect(calls.ok && calls.value).toHaveLength(2);
        return calls.ok ? calls.value : [];
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(rows.map((r) => [r.tool, r.operation, r.outcome])).toEqual([
      ["read", "GET /Customers", "ok"],
      ["read", "(outside the catalog)", "error"],
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows).toLowerCase()).not.toContain("/nowhere");
  });
});
