import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../src/kernel/crypto";
import { fingerprintOf } from "../../../src/v2/shaping/idempotency-rules";
import { control, fresh, gw, json, stats, tenant } from "../../helpers/gateway";

beforeEach(() => fresh());

const TENANT = env.TENANT;
const PROBLEMS = "https://ledgergate.dev/problems/";
type Tenant = Awaited<ReturnType<typeof tenant>>;

/**
 * Upstream calls made by `run` (the sandbox's request counter; the tenant's token is already warm).
 */
async function calls<T>(run: () => Promise<T>): Promise<{ value: T; calls: number }> {
  const before = (await stats()).requests;
  const value = await run();
  return { value, calls: (await stats()).requests - before };
}

const post = (t: Tenant, key: string, body: unknown, path = "/Customers") =>
  t.v2(path, json(body, "POST", { "idempotency-key": key }));
const customers = async (t: Tenant) => {
  const res = await t.v2("/Customers");
  return res.status === 204
    ? []
    : ((await res.json()) as {
        Id: number;
        Name: string;
        ExternalImportReference: string | null;
      }[]);
};

/**
 * Puts a record straight into the tenant's idempotency table, as a call still in flight (or one
 * whose holder died) leaves it.
 */
async function seedInFlight(
  t: Tenant,
  key: string,
  body: unknown,
  leaseUntil: number,
  path = "/Customers",
) {
  const keyHash = await sha256Hex(key);
  const fingerprint = await fingerprintOf(
    "POST",
    path,
    await new Response(JSON.stringify(body)).arrayBuffer(),
  );
  await runInDurableObject(TENANT.get(TENANT.idFromName(t.name)), (_i, state) => {
    state.storage.sql.exec(
      "INSERT INTO idempotency_keys (key_hash, fingerprint, state, holder, lease_until, expires_at) VALUES (?, ?, 'in-flight', 'someone', ?, ?)",
      keyHash,
      fingerprint,
      leaseUntil,
      Date.now() + 86_400_000,
    );
  });
}

describe("idempotent writes: happy", () => {
  it("a repeated POST gets the first answer, replayed, with no upstream call and one record", async () => {
    const t = await tenant();
    const first = await calls(() => post(t, "order-1001", { Name: "Fjord AS" }));
    expect(first.calls).toBe(1);
    expect(first.value.status).toBe(201);
    expect(first.value.headers.get("idempotent-replayed")).toBeNull();
    const created = (await first.value.json()) as { Id: number };
    const again = await calls(() => post(t, "order-1001", { Name: "Fjord AS" }));
    expect(again.calls).toBe(0);
    expect(again.value.status).toBe(201);
    expect(again.value.headers.get("idempotent-replayed")).toBe("true");
    expect(again.value.headers.get("content-type")).toContain("application/json");
    expect(again.value.headers.get("x-request-id")).toBeTruthy();
    expect(await again.value.json()).toEqual(created);
    expect(await customers(t)).toEqual([expect.objectContaining({ Id: created.Id })]);
  });

  it("20 concurrent repeats of one key create one record with one upstream call", async () => {
    const t = await tenant();
    const { value: answers, calls: made } = await calls(() =>
      Promise.all(Array.from({ length: 20 }, () => post(t, "burst", { Name: "Burst AS" }))),
    );
    expect(made).toBe(1);
    const statuses = answers.map((a) => a.status);
    // One created it; the others got it replayed, or were told it was still in flight.
    expect(statuses.filter((s) => s === 201)).not.toHaveLength(0);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(
      answers.filter((a) => a.status === 201 && a.headers.get("idempotent-replayed") === null),
    ).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.headers.get("retry-after")).toBe("1");
      expect(await a.json()).toMatchObject({ type: `${PROBLEMS}idempotency-key-in-use` });
    }
    expect(await customers(t)).toHaveLength(1);
    expect((await post(t, "burst", { Name: "Burst AS" })).headers.get("idempotent-replayed")).toBe(
      "true",
    );
  });

  it("keeps PATCH and DELETE answers too, and the IETF draft's quoted form of a key is the same key", async () => {
    const t = await tenant();
    const c = (await (await t.v2("/Customers", json({ Name: "Patch AS" }))).json()) as {
      Id: number;
    };
    const patch = {
      method: "PATCH",
      headers: { "content-type": "application/json-patch+json", "idempotency-key": "p-1" },
      body: JSON.stringify([{ op: "replace", path: "/Name", value: "Patched AS" }]),
    };
    expect((await t.v2(`/Customers/${c.Id}`, patch)).status).toBe(200);
    const replayed = await calls(() =>
      t.v2(`/Customers/${c.Id}`, {
        ...patch,
        headers: { ...patch.headers, "idempotency-key": '"p-1"' },
      }),
    );
    expect(replayed.calls).toBe(0);
    expect(await replayed.value.json()).toMatchObject({ Name: "Patched AS" });
    expect(
      (
        await t.v2(`/Customers/${c.Id}`, {
          method: "DELETE",
          headers: { "idempotency-key": "d-1" },
        })
      ).status,
    ).toBe(200);
    // A plain repeat would be a 404 now; the keyed one is the first answer again.
    const del = await calls(() =>
      t.v2(`/Customers/${c.Id}`, { method: "DELETE", headers: { "idempotency-key": "d-1" } }),
    );
    expect([del.value.status, del.value.headers.get("idempotent-replayed"), del.calls]).toEqual([
      200,
      "true",
      0,
    ]);
  });

  it("keeps the API's own refusal as the answer (a duplicate ExternalImportReference)", async () => {
    const t = await tenant();
    expect(
      (await t.v2("/Customers", json({ Name: "A", ExternalImportReference: "dup" }))).status,
    ).toBe(201);
    const first = await post(t, "k-dup", { Name: "B", ExternalImportReference: "dup" });
    expect(first.status).toBe(400);
    const body = await first.json();
    const again = await calls(() =>
      post(t, "k-dup", { Name: "B", ExternalImportReference: "dup" }),
    );
    expect([again.value.status, again.calls]).toEqual([400, 0]);
    expect(await again.value.json()).toEqual(body);
  });
});

describe("idempotent writes: bad input", () => {
  it("the same key with another body, method or path is 422, with nothing sent", async () => {
    const t = await tenant();
    expect((await post(t, "k-1", { Name: "First AS" })).status).toBe(201);
    const other = await calls(async () => [
      await post(t, "k-1", { Name: "Second AS" }),
      await post(t, "k-1", { Name: "First AS" }, "/Suppliers"),
      // Another method of the same resource (PUT /Customers is no operation: the gateway's 405).
      await t.v2("/Customers/1", {
        method: "DELETE",
        headers: { "idempotency-key": "k-1" },
      }),
    ]);
    expect(other.calls).toBe(0);
    for (const res of other.value) {
      expect(res.status).toBe(422);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(await res.json()).toMatchObject({ type: `${PROBLEMS}idempotency-key-reused` });
    }
    expect(await customers(t)).toHaveLength(1);
  });

  it("refuses a key that is empty, too long or not printable ASCII, with nothing sent", async () => {
    const t = await tenant();
    const bad = await calls(() =>
      Promise.all(
        ["", "x".repeat(256), "tab\tkey", "del\x7f", '""'].map((k) => post(t, k, { Name: "X" })),
      ),
    );
    expect(bad.calls).toBe(0);
    for (const res of bad.value) {
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        type: `${PROBLEMS}bad-request`,
        detail: expect.stringContaining("Idempotency-Key") as unknown,
      });
    }
    expect((await post(t, "x".repeat(255), { Name: "X" })).status).toBe(201);
  });

  it("a write refused before anything was sent releases the key: it can be used again", async () => {
    const t = await tenant();
    const refused = await calls(() => post(t, "k-2", { Name: "X", Nmae: "typo" }));
    expect([refused.value.status, refused.calls]).toEqual([400, 0]);
    // Another body with the same key is a first call, not a 422.
    const next = await post(t, "k-2", { Name: "Fixed AS" });
    expect([next.status, next.headers.get("idempotent-replayed")]).toEqual([201, null]);
  });

  it("a repeat while the first is in flight is 409 with Retry-After: 1, and nothing is sent", async () => {
    const t = await tenant();
    await seedInFlight(t, "k-busy", { Name: "Busy AS" }, Date.now() + 60_000);
    const busy = await calls(() => post(t, "k-busy", { Name: "Busy AS" }));
    expect([busy.value.status, busy.value.headers.get("retry-after"), busy.calls]).toEqual([
      409,
      "1",
      0,
    ]);
    expect(await busy.value.json()).toMatchObject({ type: `${PROBLEMS}idempotency-key-in-use` });
  });
});

describe("idempotent writes: unknown outcomes", () => {
  it("a write whose connection dropped after it was sent says outcome-unknown on repeat, and sends nothing again", async () => {
    const t = await tenant();
    await control("PUT", "/settings", {
      faults: [{ kind: "drop", target: "api", path: "/Customers", count: 1 }],
    });
    expect((await post(t, "k-lost", { Name: "Lost AS" })).status).toBe(502);
    const again = await calls(() => post(t, "k-lost", { Name: "Lost AS" }));
    expect([again.value.status, again.calls]).toEqual([409, 0]);
    expect(await again.value.json()).toMatchObject({
      type: `${PROBLEMS}outcome-unknown`,
      detail: expect.stringContaining("unknown") as unknown,
    });
  });

  it("a call whose holder vanished (its lease ran out) is unknown too", async () => {
    const t = await tenant();
    await seedInFlight(t, "k-gone", { Name: "Gone AS" }, Date.now() - 1);
    const res = await calls(() => post(t, "k-gone", { Name: "Gone AS" }));
    expect([res.value.status, res.calls]).toEqual([409, 0]);
    expect(await res.value.json()).toMatchObject({ type: `${PROBLEMS}outcome-unknown` });
  });

  it("with an ExternalImportReference, a repeat looks the record up and, not finding it, sends the write once more", async () => {
    const t = await tenant();
    await control("PUT", "/settings", {
      faults: [{ kind: "drop", target: "api", path: "/Customers", count: 1 }],
    });
    const body = { Name: "Retry AS", ExternalImportReference: "shop-77" };
    expect((await post(t, "k-ref", body)).status).toBe(502);
    const again = await calls(() => post(t, "k-ref", body));
    // The lookup, then the write.
    expect([again.value.status, again.calls]).toEqual([201, 2]);
    expect(await customers(t)).toEqual([
      expect.objectContaining({ Name: "Retry AS", ExternalImportReference: "shop-77" }),
    ]);
    const third = await calls(() => post(t, "k-ref", body));
    expect([
      third.value.status,
      third.value.headers.get("idempotent-replayed"),
      third.calls,
    ]).toEqual([201, "true", 0]);
  });

  it("with an ExternalImportReference, a repeat that finds the record answers with it and writes nothing", async () => {
    const t = await tenant();
    const body = { Name: "Found AS", ExternalImportReference: "shop-78" };
    // The record exists (as if the lost call had been applied), then the keyed call loses its
    // connection.
    const made = (await (await t.v2("/Customers", json(body))).json()) as { Id: number };
    await control("PUT", "/settings", {
      faults: [{ kind: "drop", target: "api", path: "/Customers", count: 1 }],
    });
    expect((await post(t, "k-found", body)).status).toBe(502);
    const again = await calls(() => post(t, "k-found", body));
    expect([
      again.value.status,
      again.value.headers.get("idempotent-replayed"),
      again.calls,
    ]).toEqual([201, "true", 1]);
    expect(await again.value.json()).toMatchObject({
      Id: made.Id,
      ExternalImportReference: "shop-78",
    });
    expect(await customers(t)).toHaveLength(1);
    const third = await calls(() => post(t, "k-found", body));
    expect([third.value.status, third.calls]).toEqual([201, 0]);
  });
});

describe("idempotent writes: a code lookup that failed before the write", () => {
  const keyedMerge = (t: Tenant, key: string, id: number, body: unknown) =>
    t.v2(`/Customers/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/merge-patch+json", "idempotency-key": key },
      body: JSON.stringify(body),
    });

  it.each([
    ["lost its connection", { kind: "drop" }, 502],
    ["was answered 500", { kind: "error", status: 500 }, 500],
  ])(
    "a lookup that %s is a plain failure: the key is released, and a repeat is tried afresh",
    async (_why, fault, status) => {
      const t = await tenant();
      const dept = (await (
        await t.v2("/Departments", json({ Code: "AVD10", Name: "Salg" }))
      ).json()) as { Id: number };
      const c = (await (await t.v2("/Customers", json({ Name: "Fjord AS" }))).json()) as {
        Id: number;
      };
      await control("PUT", "/settings", {
        faults: [{ ...fault, target: "api", path: "/Departments", count: 1 }],
      });
      const first = await calls(() => keyedMerge(t, "k-lookup", c.Id, { DepartmentCode: "AVD10" }));
      // Only the lookup went upstream: the write was never sent.
      expect([first.value.status, first.calls]).toEqual([status, 1]);
      const again = await calls(() => keyedMerge(t, "k-lookup", c.Id, { DepartmentCode: "AVD10" }));
      expect(
        [again.value.status, again.value.headers.get("idempotent-replayed"), again.calls],
        await again.value.clone().text(),
      ).toEqual([200, null, 2]);
      expect(await (await t.v2(`/Customers/${c.Id}`)).json()).toMatchObject({
        DepartmentId: dept.Id,
      });
    },
  );
});

describe("idempotent writes: security", () => {
  it("keys are per tenant: tenant B using tenant A's key gets its own first call", async () => {
    const a = await tenant();
    const b = await tenant();
    expect((await post(a, "shared-key", { Name: "A's customer" })).status).toBe(201);
    const theirs = await calls(() => post(b, "shared-key", { Name: "A's customer" }));
    expect([
      theirs.value.status,
      theirs.value.headers.get("idempotent-replayed"),
      theirs.calls,
    ]).toEqual([201, null, 1]);
    expect(await customers(b)).toHaveLength(1);
    expect(await customers(a)).toHaveLength(1);
  });

  it("a replay needs a valid gateway key", async () => {
    const t = await tenant();
    expect((await post(t, "k-auth", { Name: "X" })).status).toBe(201);
    const forged = await calls(() =>
      gw(
        "/v2/Customers",
        json({ Name: "X" }, "POST", { "idempotency-key": "k-auth", authorization: "Bearer nope" }),
      ),
    );
    expect(forged.calls).toBe(0);
    expect(forged.value.status).toBe(401);
  });
});

describe("idempotent writes: retention", () => {
  it("a kept answer arms the tenant's alarm, which purges it once expired; the key is then new again", async () => {
    const t = await tenant();
    expect((await post(t, "k-old", { Name: "Old AS" })).status).toBe(201);
    const stub = TENANT.get(TENANT.idFromName(t.name));
    const armed = await runInDurableObject(stub, async (_i, state) => {
      const alarm = await state.storage.getAlarm();
      const expires = state.storage.sql
        .exec<{ e: number }>("SELECT expires_at AS e FROM idempotency_keys")
        .one().e;
      state.storage.sql.exec("UPDATE idempotency_keys SET expires_at = ?", Date.now() - 1);
      await state.storage.setAlarm(Date.now());
      return { alarm, expires };
    });
    expect(armed.alarm).not.toBeNull();
    expect(armed.alarm).toBeLessThanOrEqual(armed.expires);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(
      await runInDurableObject(stub, (_i, state) =>
        state.storage.sql.exec("SELECT key_hash FROM idempotency_keys").toArray(),
      ),
    ).toEqual([]);
    const again = await post(t, "k-old", { Name: "Old AS" });
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, null]);
  });
});
