/**
 * The tenant object's faces (`tenant/tenant-object.ts`): the object answers only through the face
 * of a caller's kind, a key is checked once when its face is handed out, and a face that did not
 * check out (a bad key, a gone registration) answers without touching anything.
 */
import { env, RpcTarget } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import type { Tenant } from "../../src/tenant/tenant-object";
import { newGrantId } from "../../src/assistants/oauth/grants";
import {
  asGrantHolder,
  asKeyHolder,
  asOperator,
  asRun,
  tenantName,
  tenantStub,
  type TenantName,
} from "../../src/kernel/stubs";
import { SECTIONS } from "../../src/tenant/operator-face";
import { addSections } from "../../src/tenant/operator-sections";
import { fresh, tenant } from "../helpers/gateway";

const REFUSED = {
  ok: false,
  error: { reason: "unauthorized", detail: "The gateway key is not valid." },
};
/** A claim whose lease lasts the test. */
const claim = () => ({
  keyHash: "a".repeat(64),
  fingerprint: "f",
  recheck: false,
  leaseUntil: Date.now() + 60_000,
});

beforeEach(() => fresh());

/**
 * A face's methods: those of every prototype up to `RpcTarget`'s, as RPC reaches them (the key's
 * and the grant's share theirs through `HolderFace`).
 */
function faceNames(o: object): string[] {
  const all = new Set<string>();
  for (let p = Object.getPrototypeOf(o); p && p !== RpcTarget.prototype;) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== "constructor") all.add(n);
    p = Object.getPrototypeOf(p);
  }
  return [...all].sort();
}

/** A registered tenant, addressed as the lib addresses it. */
async function registered() {
  const t = await tenant();
  return { ...t, name: tenantName(t.environment, t.client) };
}

const GRANT_REFUSED = {
  ok: false,
  error: { reason: "unauthorized", detail: "The grant is not valid: connect the assistant again." },
};

/** A live grant of `t`, approved with its key, ending in an hour. */
async function granted(t: Awaited<ReturnType<typeof registered>>) {
  const id = newGrantId();
  const added = await asKeyHolder(env, { tenant: t.name, key: t.gatewayKey }, (f) =>
    f.grantAssistant({
      id,
      clientId: "client-1",
      clientName: "Test Assistant",
      redirectHost: "127.0.0.1",
      scope: "draft",
      approvedBy: "key:00000000",
      expiresAt: Date.now() + 3_600_000,
    }),
  );
  expect(added.ok).toBe(true);
  return { tenant: t.name, grant: id };
}

describe("tenant faces: security", () => {
  it("the object's public methods are only the faces, the webhook intake, invalidate and alarm", async () => {
    const t = await registered();
    const g = await granted(t);
    const names = (o: object) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).sort();
    const surface = await runInDurableObject(tenantStub(env, t.name), async (instance) => {
      const tenant = instance as unknown as Tenant;
      return {
        tenant: names(tenant),
        granted: faceNames(await tenant.forKey(t.gatewayKey)),
        refused: faceNames(await tenant.forKey("lg_demo_nobody_x")),
        grant: faceNames(tenant.forGrant(g.grant)),
        refusedGrant: faceNames(tenant.forGrant("grant_nobodynobodynobo")),
      };
    });
    expect(surface.tenant).toEqual(
      [
        "alarm",
        "forCallLog",
        "constructor",
        "forRun",
        "forWatcher",
        "invalidate",
        "forOperator",
        "receiveWebhook",
        "forGrant",
        "forKey",
      ].sort(),
    );
    // RPC reaches a face's prototype methods: a refused face has exactly the granted face's.
    expect(surface.refused).toEqual(surface.granted);
    expect(surface.refusedGrant).toEqual(surface.grant);
    // A grant opens less than a key: no retry of a run, no payouts (no tool reads them), no
    // approving another grant.
    expect(surface.grant.filter((m) => !surface.granted.includes(m))).toEqual(["use"]);
    expect(surface.granted.filter((m) => !surface.grant.includes(m)).sort()).toEqual([
      "grantAssistant",
      "payout",
      "payouts",
      "retryOrder",
      "retryPayout",
      "tenant",
      "unpaidOrders",
    ]);
  });

  it("every method of the key's and the grant's faces, named from the checked face, refuses over RPC", async () => {
    const t = await registered();
    const g = await granted(t);
    const methods = await runInDurableObject(tenantStub(env, t.name), async (instance) => {
      const tenant = instance as unknown as Tenant;
      return {
        key: faceNames(await tenant.forKey(t.gatewayKey)),
        grant: faceNames(tenant.forGrant(g.grant)),
      };
    });
    const call = (m: string) => (f: object) =>
      (f as Record<string, (() => Promise<unknown>) | undefined>)[m]?.();
    const forged = { tenant: t.name, key: `${t.gatewayKey.slice(0, -4)}AAAA` };
    for (const m of methods.key)
      expect(await asKeyHolder(env, forged, call(m)), m).toEqual(REFUSED);
    const unknown = { tenant: t.name, grant: newGrantId() };
    for (const m of methods.grant)
      expect(await asGrantHolder(env, unknown, call(m)), m).toEqual(GRANT_REFUSED);
    // The lists are each face's whole surface: the holder's methods and the face's own.
    expect(methods.key).toEqual(expect.arrayContaining(["access", "retryOrder", "grantAssistant"]));
    expect(methods.grant).toEqual(expect.arrayContaining(["access", "use"]));
  });

  it("a key that does not check out gets the same refusal from every method, and changes nothing", async () => {
    const t = await registered();
    const forged = { tenant: t.name, key: `${t.gatewayKey.slice(0, -4)}AAAA` };
    const answers = await asKeyHolder(env, forged, (f) =>
      Promise.all([
        f.access(),
        f.orderRuns(null, 10),
        f.orderRun("shopify", "1"),
        f.retryOrder("shopify", "1"),
        f.idempotencyClaim(claim()),
        f.idempotencyFinish({ keyHash: "a".repeat(64), holder: "h", how: { kind: "release" } }),
        f.referenceRead({ key: "/Currencies", resource: "currencies", refresh: false }),
        f.forgetWritten({ resource: "currencies", kinds: [] }),
        f.codeIds([]),
        f.rememberCodeIds([]),
        f.forgetCodeIds([]),
        f.confirmationStash({
          handleHash: "c".repeat(64),
          principal: "key:00000000",
          write: {
            method: "POST",
            path: "/Customers",
            search: "",
            body: "{}",
            operationClass: "draft",
          },
        }),
        f.confirmationTake({ handleHash: "c".repeat(64), principal: "key:00000000" }),
      ]),
    );
    for (const answer of answers) expect(answer).toEqual(REFUSED);
    // The refused claim left nothing behind: the key's holder claims the same key first.
    const own = { tenant: t.name, key: t.gatewayKey };
    const mine = await asKeyHolder(env, own, (f) => f.idempotencyClaim(claim()));
    expect(mine.ok && mine.value.kind).toBe("first");
  });

  it("a removed tenant: its key's face refuses, and a run of its registration gets no token and reads nothing", async () => {
    const t = await registered();
    const registration = await asOperator(env, t.name, (f) => f.registrationId());
    if (!registration.ok) throw new Error("the registered tenant has no registration");
    const run = <T>(call: Parameters<typeof asRun<T>>[3]) =>
      asRun(env, t.name, registration.value, call);
    expect((await run((f) => f.access())).ok).toBe(true);
    const runMethods = await runInDurableObject(tenantStub(env, t.name), async (instance) =>
      faceNames((instance as unknown as Tenant).forRun(registration.value)),
    );
    expect(await asOperator(env, t.name, (f) => f.remove())).toEqual({
      ok: true,
      value: null,
    });
    expect(
      await asKeyHolder(env, { tenant: t.name, key: t.gatewayKey }, (f) => f.access()),
    ).toEqual(REFUSED);
    const access = await run((f) => f.access());
    expect(access.ok || access.error.reason).toBe("not-found");
    expect(await run((f) => f.runInput("shopify", "1"))).toBeNull();
    expect(await run((f) => f.known({ codes: ["A"] }))).toEqual({
      customer: null,
      products: [],
      settlement: null,
    });
    // Every method of a live run's face answers inertly once the registration is gone: no
    // token, no key, nothing read.
    const INERT = [
      undefined,
      null,
      [],
      { kind: "stale" },
      { customer: null, products: [], settlement: null },
      { ok: false, error: expect.objectContaining({ reason: "not-found" }) },
      // A shared call's refusal: not retryable, since the registration does not come back.
      { ok: false, retryable: false, detail: expect.stringContaining("is gone") },
    ];
    expect(runMethods).toContain("stripeKey");
    for (const m of runMethods) {
      const answer = await run((f) =>
        (f as unknown as Record<string, (() => Promise<unknown>) | undefined>)[m]?.(),
      );
      expect(INERT, m).toContainEqual(answer);
    }
  });
});

describe("tenant faces: a grant's", () => {
  it("a grant unknown, revoked, or of a removed tenant gets the same refusal from every method, and changes nothing", async () => {
    const t = await registered();
    const g = await granted(t);
    const all = (who: { tenant: typeof t.name; grant: string }) =>
      asGrantHolder(env, who, (f) =>
        Promise.all([
          f.use(),
          f.access(),
          f.orderRuns(null, 10),
          f.orderRun("shopify", "1"),
          f.idempotencyClaim(claim()),
          f.referenceRead({ key: "/Currencies", resource: "currencies", refresh: false }),
          f.forgetWritten({ resource: "currencies", kinds: [] }),
          f.codeIds([]),
          f.confirmationTake({ handleHash: "c".repeat(64), principal: `grant:${who.grant}` }),
        ]),
      );
    for (const answer of await all({ tenant: t.name, grant: newGrantId() }))
      expect(answer).toEqual(GRANT_REFUSED);
    // The refused claim left nothing behind: the live grant claims the same key first.
    const mine = await asGrantHolder(env, g, (f) => f.idempotencyClaim(claim()));
    expect(mine.ok && mine.value.kind).toBe("first");
    expect(await asOperator(env, t.name, (f) => f.revokeAssistantGrant(g.grant))).toEqual({
      ok: true,
      value: null,
    });
    for (const answer of await all(g)) expect(answer).toEqual(GRANT_REFUSED);
    const other = await granted(t);
    expect((await asOperator(env, t.name, (f) => f.remove())).ok).toBe(true);
    for (const answer of await all(other)) expect(answer).toEqual(GRANT_REFUSED);
  });

  it("a live grant's face answers its scope and notes its use, and holds its own prepared writes", async () => {
    const t = await registered();
    const g = await granted(t);
    const used = await asGrantHolder(env, g, (f) => f.use());
    expect(used).toMatchObject({ ok: true, value: { scope: "draft" } });
    const listed = await asOperator(env, t.name, (f) => f.assistantGrants());
    expect(listed.ok && listed.value.map((x) => [x.id, x.lastUsedAt !== null])).toEqual([
      [g.grant, true],
    ]);
    const write = {
      method: "POST",
      path: "/Customers",
      search: "",
      body: "{}",
      operationClass: "draft",
    } as const;
    const ask = { handleHash: "e".repeat(64), principal: `grant:${g.grant}`, write };
    expect((await asGrantHolder(env, g, (f) => f.confirmationStash(ask))).ok).toBe(true);
    // The same handle under the tenant's key is another principal's: unknown to it.
    const byKey = await asKeyHolder(env, { tenant: t.name, key: t.gatewayKey }, (f) =>
      f.confirmationTake({ handleHash: ask.handleHash, principal: "key:00000000" }),
    );
    expect(byKey).toEqual({ ok: true, value: { kind: "unknown" } });
    const mine = await asGrantHolder(env, g, (f) =>
      f.confirmationTake({ handleHash: ask.handleHash, principal: ask.principal }),
    );
    expect(mine).toMatchObject({ ok: true, value: { kind: "ready", first: true } });
  });
});

describe("tenant faces: happy", () => {
  it("a prepared write is found by its principal under the registration it was kept in, and by nobody else", async () => {
    const t = await registered();
    const own = { tenant: t.name, key: t.gatewayKey };
    const write = {
      method: "POST",
      path: "/Customers",
      search: "",
      body: '{"Name":"Fjord AS"}',
      operationClass: "draft",
    } as const;
    const ask = { handleHash: "d".repeat(64), principal: "key:11111111", write };
    expect((await asKeyHolder(env, own, (f) => f.confirmationStash(ask))).ok).toBe(true);
    const take = (principal: string) =>
      asKeyHolder(env, own, (f) => f.confirmationTake({ handleHash: ask.handleHash, principal }));
    expect(await take("key:22222222")).toEqual({ ok: true, value: { kind: "unknown" } });
    expect(await take("key:11111111")).toMatchObject({
      ok: true,
      value: { kind: "ready", first: true, write },
    });
    expect(await take("key:11111111")).toMatchObject({ ok: true, value: { first: false } });
  });

  it("a checked key's face acts at once: a claim, then the same key found in flight", async () => {
    const t = await registered();
    const own = { tenant: t.name, key: t.gatewayKey };
    const first = await asKeyHolder(env, own, (f) => f.idempotencyClaim(claim()));
    expect(first.ok && first.value.kind).toBe("first");
    const again = await asKeyHolder(env, own, (f) => f.idempotencyClaim(claim()));
    expect(again.ok && again.value.kind).toBe("in-flight");
  });

  it("the operator's face refuses a grace that is not a whole number ≥ 0, and stores no key", async () => {
    const t = await registered();
    const before = await asOperator(env, t.name, (f) => f.describe());
    for (const grace of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
      const rotated = await asOperator(env, t.name, (f) => f.rotateGatewayKey(grace));
      expect(rotated.ok || rotated.error.reason, String(grace)).toBe("bad-request");
    }
    expect((await asOperator(env, t.name, (f) => f.describe()))?.gatewayKeys).toEqual(
      before?.gatewayKeys,
    );
  });

  it("the operator's face describes the tenant, never a secret", async () => {
    const t = await registered();
    const d = await asOperator(env, t.name, (f) => f.describe());
    expect(d?.tenant).toBe(t.name);
    expect(JSON.stringify(d)).not.toContain(t.gatewayKey);
    expect(JSON.stringify(d)).not.toContain(t.clientKey);
  });
});

describe("tenant faces: the operator's sections", () => {
  /** The operator's face's methods over RPC: the face's own, and those its sections added. */
  const operatorMethods = (name: TenantName) =>
    runInDurableObject(tenantStub(env, name), (instance) => {
      const face = (instance as unknown as Tenant).forOperator();
      const own = Object.getOwnPropertyNames(Object.getPrototypeOf(face));
      return own.filter((n) => n !== "constructor").sort();
    });
  /** The methods the face declares itself, in `tenant/operator-face.ts`. */
  const LIFECYCLE = [
    "describe",
    "register",
    "registrationId",
    "remove",
    "replaceClientKey",
    "rotateGatewayKey",
  ];

  it("every section's method is reachable over RPC, and answers not-found for a tenant not registered", async () => {
    const name = tenantName("demo", "never-registered");
    const methods = await operatorMethods(name);
    const sectioned = methods.filter((m) => !LIFECYCLE.includes(m));
    // Every section's methods, as its class declares them, beside the tenant's own lifecycle.
    const declared = SECTIONS.flatMap((S) => Object.getOwnPropertyNames(S.prototype));
    expect(methods.filter((m) => LIFECYCLE.includes(m))).toEqual(LIFECYCLE);
    expect(sectioned).toEqual(declared.filter((m) => m !== "constructor").sort());
    expect(sectioned).toHaveLength(35);
    for (const m of sectioned) {
      const answer = await asOperator(env, name, (f) =>
        (f as unknown as Record<string, () => Promise<unknown>>)[m]?.(),
      );
      expect(answer, m).toEqual({
        ok: false,
        error: { reason: "not-found", detail: "No such tenant." },
      });
    }
  });

  it("a registered tenant's section answers with the section's work", async () => {
    const t = await registered();
    const mapping = await asOperator(env, t.name, (f) => f.orderMapping());
    expect(mapping.ok && mapping.value.unknownSkus).toBe("create");
    const grants = await asOperator(env, t.name, (f) => f.assistantGrants());
    expect(grants).toEqual({ ok: true, value: [] });
  });

  it("two sections naming one method are refused when the face is composed", () => {
    const Face = { prototype: {} };
    class A {
      orders() {}
    }
    class B {
      orders() {}
    }
    const none = () => ({ record: () => null, of: () => ({}) });
    expect(() => addSections(Face, [A, B], none)).toThrow(/orders is declared twice/);
  });
});
