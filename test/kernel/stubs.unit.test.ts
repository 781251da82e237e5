import { describe, expect, it } from "vitest";
import {
  ClientSlug,
  governorStub,
  NEAR_THE_API,
  parseTenantName,
  tenantName,
  tenantStub,
  type TenantBinding,
} from "../../src/kernel/stubs";

describe("stubs: tenantName and parseTenantName", () => {
  it("builds environment:client and parses it back", () => {
    expect(tenantName("demo", "acme")).toBe("demo:acme");
    expect(parseTenantName("demo:acme")).toEqual({
      ok: true,
      value: { environment: "demo", client: "acme" },
    });
    expect(parseTenantName(tenantName("production", "a-1"))).toEqual({
      ok: true,
      value: { environment: "production", client: "a-1" },
    });
    expect(parseTenantName(`demo:${"9".repeat(63)}`).ok).toBe(true);
  });

  it("refuses names with an unknown environment, a bad slug or extra parts, quoting the name", () => {
    const refused = [
      "",
      "demo",
      "demo:",
      ":acme",
      "staging:acme",
      "Demo:acme",
      "demo:Acme",
      "demo:acme_1",
      "demo:-acme",
      "demo:ac me",
      "demo:acme:x",
      "demo:acme:",
      `demo:${"a".repeat(64)}`,
      "demo:æ",
    ];
    for (const name of refused) {
      const r = parseTenantName(name);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error).toBe(`not a tenant name: ${JSON.stringify(name)}`);
    }
  });
});

describe("stubs: ClientSlug", () => {
  it("accepts 1-63 lowercase letters, digits and dashes, not starting with a dash", () => {
    for (const s of ["a", "0", "acme-as", "a".repeat(63)])
      expect(ClientSlug.safeParse(s).success, s).toBe(true);
    for (const s of ["", "-a", "A", "a_b", "a.b", "a".repeat(64)])
      expect(ClientSlug.safeParse(s).success, s).toBe(false);
  });
});

describe("stubs: where the objects are created", () => {
  it("asks for West Europe, near the API, on every tenant and governor stub", () => {
    const asked: { name: string; options: unknown }[] = [];
    // A namespace that only records what it is asked: the lib project has no bindings, and a hint
    // is not observable from a local object (miniflare ignores it).
    const namespace = {
      idFromName: (name: string) => ({ name }),
      get: (id: { name: string }, options: unknown) => (asked.push({ name: id.name, options }), {}),
    } as unknown as TenantBinding["TENANT"] & Env["RATE_GOVERNOR"];
    tenantStub({ TENANT: namespace }, "demo:acme");
    governorStub({ RATE_GOVERNOR: namespace }, "production");
    expect(asked).toEqual([
      { name: "demo:acme", options: { locationHint: "weur" } },
      { name: "production", options: { locationHint: "weur" } },
    ]);
    expect(NEAR_THE_API).toEqual({ locationHint: "weur" });
  });
});
