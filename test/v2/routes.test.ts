import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { upstreamHeaders } from "../../src/v2/passthrough";
import { restoreClock, skipAhead } from "../helpers/clock";
import { control, fresh, gw, json, stats, tenant } from "../helpers/gateway";

beforeEach(() => fresh());
afterEach(restoreClock);

describe("v2 pass-through: happy", () => {
  it("carries create, list (with X-Pagination), get, JSON Patch and delete for the key's tenant", async () => {
    const t = await tenant();
    const created = await t.v2(
      "/Customers",
      json({ Name: "Fjord AS", EmailAddress: "post@fjord.no" }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("x-request-id")).toBeTruthy();
    const c = (await created.json()) as { Id: number; Name: string };
    const list = await t.v2("/Customers?PageSize=1");
    expect(list.status).toBe(200);
    expect(JSON.parse(list.headers.get("x-pagination") ?? "{}")).toMatchObject({
      totalCount: 1,
      pageSize: 1,
    });
    expect(await list.json()).toEqual([expect.objectContaining({ Id: c.Id })]);
    const patched = await t.v2(`/Customers/${c.Id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json-patch+json" },
      body: JSON.stringify([{ op: "replace", path: "/Name", value: "Fjord Holding AS" }]),
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ Name: "Fjord Holding AS" });
    expect((await t.v2(`/Customers/${c.Id}`, { method: "DELETE" })).status).toBe(200);
    expect((await t.v2(`/Customers/${c.Id}`)).status).toBe(404);
    expect((await t.v2("/Customers")).status).toBe(204);
  });

  it("passes the API's own errors through unchanged", async () => {
    const t = await tenant();
    const res = await t.v2("/Customers/999999");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      title: "Object(s) not found",
      detail: "Customer with id = 999999 not found.",
    });
    const dup1 = await t.v2("/Customers", json({ Name: "A", ExternalImportReference: "r1" }));
    expect(dup1.status).toBe(201);
    const dup2 = await t.v2("/Customers", json({ Name: "B", ExternalImportReference: "r1" }));
    expect(dup2.status).toBe(400);
    expect(await dup2.json()).toMatchObject({ title: "Customer validation error(s)" });
  });

  it("works in production as in demo, with that environment's keys", async () => {
    const t = await tenant("production");
    expect((await t.v2("/Customers", json({ Name: "Prod AS" }))).status).toBe(201);
    const info = (await (await t.v2("/ClientIntegrationInformation")).json()) as {
      ClientId: string;
    };
    expect(info.ClientId).toBe(t.clientId);
  });
});

describe("v2 pass-through: security", () => {
  it("tenant A's gateway key never reaches tenant B's data", async () => {
    const a = await tenant();
    const b = await tenant();
    const c = (await (await b.v2("/Customers", json({ Name: "B's customer" }))).json()) as {
      Id: number;
    };
    expect((await a.v2(`/Customers/${c.Id}`)).status).toBe(404);
    expect((await a.v2("/Customers")).status).toBe(204);
    expect((await a.v2(`/Customers/${c.Id}`, { method: "DELETE" })).status).toBe(404);
    expect((await b.v2(`/Customers/${c.Id}`)).status).toBe(200);
    // A key whose tenant part is rewritten to B's is not B's key.
    const forged = a.gatewayKey.replace(a.client, b.client);
    expect(
      (await gw(`/v2/Customers/${c.Id}`, { headers: { authorization: `Bearer ${forged}` } }))
        .status,
    ).toBe(401);
  });

  it("answers 401 without a gateway key, with a malformed one, or an unknown tenant's", async () => {
    for (const auth of [
      undefined,
      "Bearer nope",
      "Basic Zm9vOmJhcg==",
      `Bearer lg_demo_ghost_${"a".repeat(43)}`,
    ]) {
      const res = await gw("/v2/Customers", { headers: auth ? { authorization: auth } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("refuses paths that try to leave /v2, and sends nothing", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    for (const path of [
      "/Customers/%2e%2e%2fadmin",
      "/Customers%2F..%2F..%2Fadmin",
      "/Customers/%5c..",
      "/Customers//1",
      "/Customers/%00",
    ]) {
      const res = await t.v2(path);
      expect(res.status, path).toBe(400);
    }
    expect((await stats()).requests).toBe(before);
  });

  it("sends the tenant's token, not the caller's gateway key (the API would answer 401 to that)", async () => {
    const t = await tenant();
    expect(
      (await t.v2("/ClientIntegrationInformation", { headers: { cookie: "session=abc" } })).status,
    ).toBe(200);
  });

  it("lets only content headers cross: no Authorization, cookies, hop-by-hop or cf-* headers", () => {
    const inbound = new Headers({
      authorization: "Bearer lg_x",
      cookie: "a=b",
      connection: "keep-alive",
      "cf-connecting-ip": "1.2.3.4",
      "x-forwarded-for": "1.2.3.4",
      "content-type": "application/json",
      accept: "application/json",
    });
    const out = upstreamHeaders(inbound, "req-1");
    expect([...out.keys()].sort()).toEqual([
      "accept",
      "content-type",
      "user-agent",
      "x-request-id",
    ]);
  });
});

describe("v2 pass-through: bad input is refused before it is sent", () => {
  it("malformed JSON, unknown fields, wrong types, a bad JSON Patch and an oversized body", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    const cases: [RequestInit, number][] = [
      [{ method: "POST", headers: { "content-type": "application/json" }, body: "{ Name: " }, 400],
      [json({ Name: "X", Nmae: "typo" }), 400],
      [json({ Name: 7 }), 400],
      [json({ Name: "X" }, "POST", { "content-type": "text/plain" }), 415],
      [
        {
          method: "PATCH",
          headers: { "content-type": "application/json-patch+json" },
          body: JSON.stringify({ Name: "x" }),
        },
        400,
      ],
      [
        {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify([{ op: "replace", path: "/Name", value: "x" }]),
        },
        415,
      ],
      [json({ Name: "X", WebsiteUrl: "x".repeat(1_100_000) }), 413],
    ];
    for (const [init, status] of cases) {
      const res = await t.v2(init.method === "PATCH" ? "/Customers/1" : "/Customers", init);
      expect(res.status, String(init.body).slice(0, 40)).toBe(status);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    const problem = (await (
      await t.v2("/Customers", json({ Name: "X", Nmae: "typo" }))
    ).json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path)).toContain("Nmae");
    expect((await stats()).requests).toBe(before);
  });

  it("a 413 states the limit that applied: 1 MiB for a checked JSON body, 32 MiB for any body", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    const checked = await t.v2(
      "/Customers",
      json({ Name: "X", WebsiteUrl: "x".repeat(1_100_000) }),
    );
    expect(checked.status).toBe(413);
    const detail = ((await checked.json()) as { detail: string }).detail;
    expect(detail).toContain("1048576 bytes");
    expect(detail).not.toContain("33554432");
    // 33 MiB declared (the stream would give as much): refused on the header, before a byte is
    // read.
    const size = 33 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024);
    let given = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (given >= size) return ctrl.close();
        given += chunk.byteLength;
        ctrl.enqueue(chunk);
      },
    });
    const declared = await t.v2("/Imports/Upload", {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(size),
      },
      body,
    });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { detail: string }).detail).toContain("33554432 bytes");
    expect((await stats()).requests).toBe(before);
  });

  it("an X-Deadline-Ms that is not a whole number of 1–120000 is a 400 naming the header and the range", async () => {
    const t = await tenant();
    const before = (await stats()).requests;
    for (const value of ["abc", "0", "-5", "999999", "1.5", "1e3", " "]) {
      const res = await t.v2("/Customers", { headers: { "x-deadline-ms": value } });
      expect(res.status, value).toBe(400);
      const body = (await res.json()) as { detail: string; requestId: string };
      expect(body.detail, value).toContain("X-Deadline-Ms");
      expect(body.detail, value).toContain("1–120000");
      expect(body.requestId).toBe(res.headers.get("x-request-id"));
    }
    expect((await stats()).requests).toBe(before);
    for (const value of ["1000", "120000"])
      expect((await t.v2("/Customers", { headers: { "x-deadline-ms": value } })).status).toBe(204);
  });
});

describe("v2 pass-through: upstream failures", () => {
  it("a connection reset is a 502 problem that says so", async () => {
    const t2 = await tenant();
    await control("PUT", "/settings", { faults: [{ kind: "drop", target: "api", count: 1 }] });
    const res = await t2.v2("/Customers");
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/upstream-failed",
      detail: expect.stringContaining("connection"),
    });
    expect((await t2.v2("/Customers")).status).toBe(204);
  });

  it("a failing token endpoint is a 503 problem with Retry-After, and is backed off", async () => {
    await fresh({ tokenLifetimeSeconds: 1 });
    const t = await tenant();
    // Past the registration token's 1 s lifetime, by the gateway's clock.
    await skipAhead(1100);
    await fresh({ faults: [{ kind: "error", target: "token", status: 503 }] });
    const first = await t.v2("/Customers");
    expect(first.status).toBe(503);
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const before = (await stats()).tokenRequests.total;
    expect((await t.v2("/Customers")).status).toBe(503);
    expect((await stats()).tokenRequests.total).toBe(before);
  });

  it("a 429 from the API is passed on for a write and slows the environment's pace, and a GET is retried after Retry-After", async () => {
    const t = await tenant();
    await control("PUT", "/settings", {
      faults: [{ kind: "throttle", target: "api", count: 2, retryAfterSeconds: 1 }],
    });
    const before = await stats();
    const post = await t.v2("/Customers", json({ Name: "Once" }));
    expect(post.status).toBe(429);
    expect(post.headers.get("retry-after")).toBe("1");
    const afterPost = await stats();
    const get = await t.v2("/Customers");
    expect(get.status).toBe(204);
    const after = await stats();
    // Counts, not durations: the write reached the API once and its 429 came back as it was; the
    // GET reached it twice, throttled and then served, so the gateway retried it exactly once.
    expect([afterPost.requests - before.requests, afterPost.throttled - before.throttled]).toEqual([
      1, 1,
    ]);
    expect([after.requests - afterPost.requests, after.throttled - afterPost.throttled]).toEqual([
      2, 1,
    ]);
  });
});
