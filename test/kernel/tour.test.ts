/**
 * The README's three-step tour, walked through `ledgergate/client` (client/index.ts) with the types
 * generated from the gateway's documents (client/generated/, checked for drift by `npm test`): this
 * file is type-checked by `npm run typecheck` against those types, and runs against the sandbox
 * here.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createLedgergateClient } from "../../client/index";
import { ADMIN, control, fresh, slug } from "../helpers/gateway";

const gateway = exports.default;
const viaGateway = (request: Request) => gateway.fetch(request);

describe("the README's tour through the typed client", () => {
  it("registers a sandbox client as a tenant and creates and lists a customer through /v2", async () => {
    await fresh();
    // 1. a client in the sandbox (the sandbox's control API is not part of the gateway's documents)
    const { clientKey } = await control<{ clientKey: string }>(
      "POST",
      "/clients",
      { environment: "demo", name: "Acme AS" },
      201,
    );

    // 2. register it with the gateway: the operator's token goes on the call, the answer is typed
    const operator = createLedgergateClient({
      baseUrl: "https://gateway.test",
      gatewayKey: "unused-for-admin-calls",
      fetch: viaGateway,
    });
    const client = slug("tour");
    const registered = await operator.gateway.POST("/admin/tenants", {
      body: { client, environment: "demo", clientKey, name: "Acme AS" },
      headers: ADMIN,
    });
    expect(registered.response.status).toBe(201);
    const gatewayKey = registered.data?.gatewayKey;
    expect(gatewayKey).toMatch(/^lg_/);

    // 3. API v2 through the gateway with the tenant's key, set once
    const lg = createLedgergateClient({
      baseUrl: "https://gateway.test",
      gatewayKey: gatewayKey ?? "",
      fetch: viaGateway,
    });
    const created = await lg.v2.POST("/Customers", { body: { Name: "Fjord AS" } });
    expect(created.response.status).toBe(201);
    const listed = await lg.v2.GET("/Customers");
    expect(listed.response.status).toBe(200);
    expect((listed.data as { Name: string }[]).map((c) => c.Name)).toEqual(["Fjord AS"]);

    // The key is the tenant's own: a wrong one is the gateway's problem, typed as an error.
    const wrong = createLedgergateClient({
      baseUrl: "https://gateway.test",
      gatewayKey: `${gatewayKey ?? ""}x`,
      fetch: viaGateway,
    });
    const refused = await wrong.v2.GET("/Customers");
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get("content-type")).toBe("application/problem+json");
  });
});
