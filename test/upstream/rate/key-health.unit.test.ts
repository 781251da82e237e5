/**
 * Whose fault a token-endpoint refusal is, on a driven clock: the rule of
 * `upstream/rate/key-health.ts`.
 */
import { describe, expect, it } from "vitest";
import { KeyHealth, REFUSAL_MEMORY_MS } from "../../../src/upstream/rate/key-health";

const T = 1_700_000_000_000;

describe("key health: several tenants refused at once", () => {
  it("a first refusal is unproven; a second tenant's, with no token issued in between, makes the environment suspect", () => {
    const h = new KeyHealth();
    h.issued("demo:a", T);
    expect(h.refused("demo:a", true, T + 1)).toEqual({ verdict: "unproven", refusedTenants: 1 });
    expect(h.view(T + 1)).toEqual({ suspect: false, refusedTenants: 1 });
    expect(h.refused("demo:b", true, T + 2)).toEqual({ verdict: "environment", refusedTenants: 2 });
    // The first tenant, asking again, is now told the same: no tenant is blamed for the
    // environment.
    expect(h.refused("demo:a", true, T + 3)).toEqual({ verdict: "environment", refusedTenants: 2 });
    expect(h.view(T + 3)).toEqual({ suspect: true, refusedTenants: 2 });
  });

  it("recovers by itself: the next token issued (the keys were fixed) ends the suspicion", () => {
    const h = new KeyHealth();
    h.refused("demo:a", true, T);
    h.refused("demo:b", true, T + 1);
    expect(h.view(T + 2).suspect).toBe(true);
    h.issued("demo:a", T + 3);
    expect(h.view(T + 3)).toEqual({ suspect: false, refusedTenants: 0 });
  });

  it("forgets refusals older than a token's lifetime", () => {
    const h = new KeyHealth();
    h.refused("demo:a", true, T);
    expect(h.refused("demo:b", true, T + REFUSAL_MEMORY_MS + 1)).toEqual({
      verdict: "unproven",
      refusedTenants: 1,
    });
  });
});

describe("key health: one tenant's key", () => {
  it("is the tenant's fault once another tenant got a token after its refusals began", () => {
    const h = new KeyHealth();
    expect(h.refused("demo:a", true, T).verdict).toBe("unproven");
    h.issued("demo:b", T + 1);
    expect(h.refused("demo:a", true, T + 2)).toEqual({ verdict: "tenant", refusedTenants: 1 });
  });

  it("a token issued before the refusals began proves nothing about them (the keys may have changed since)", () => {
    const h = new KeyHealth();
    h.issued("demo:b", T);
    expect(h.refused("demo:a", true, T + 1).verdict).toBe("unproven");
    expect(h.refused("demo:a", true, T + 2).verdict).toBe("unproven");
  });

  it("orders events as they arrived, not by their millisecond: a token heard in the refusal's millisecond, after it, proves the keys work; one heard before it does not", () => {
    // A Worker's clock reads one millisecond for events that arrive close together, and a burst
    // lets another tenant's token request go with no spacing, so both orders happen within one.
    const after = new KeyHealth();
    expect(after.refused("demo:a", true, T).verdict).toBe("unproven");
    after.issued("demo:b", T);
    expect(after.refused("demo:a", true, T)).toEqual({ verdict: "tenant", refusedTenants: 1 });

    const before = new KeyHealth();
    before.issued("demo:b", T);
    expect(before.refused("demo:a", true, T).verdict).toBe("unproven");
    expect(before.refused("demo:a", true, T).verdict).toBe("unproven");
  });

  it("counts a refusal heard in the millisecond of the last token, after it, towards suspicion", () => {
    const h = new KeyHealth();
    h.refused("demo:a", true, T);
    h.issued("demo:c", T);
    expect(h.view(T)).toEqual({ suspect: false, refusedTenants: 0 });
    h.refused("demo:a", true, T);
    expect(h.refused("demo:b", true, T)).toEqual({ verdict: "environment", refusedTenants: 2 });
  });

  it("a new key at registration is the tenant's fault unless the environment is suspect, and does not count towards it", () => {
    const h = new KeyHealth();
    expect(h.refused("demo:x", false, T)).toEqual({ verdict: "tenant", refusedTenants: 0 });
    expect(h.refused("demo:y", false, T + 1)).toEqual({ verdict: "tenant", refusedTenants: 0 });
    h.refused("demo:a", true, T + 2);
    h.refused("demo:b", true, T + 3);
    expect(h.refused("demo:z", false, T + 4)).toEqual({
      verdict: "environment",
      refusedTenants: 2,
    });
  });
});
