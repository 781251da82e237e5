import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS, IdempotencyKeys } from "../../../src/v2/tenant/idempotency-keys";
import { withTenantSql } from "../../helpers/storage";

const withKeys = <R>(run: (k: IdempotencyKeys, sql: SqlStorage) => R | Promise<R>) =>
  withTenantSql("idempotency-keys", (sql) => run(new IdempotencyKeys(sql), sql));

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const LEASE = T0 + 60_000;
const body = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const ANSWER = {
  status: 201,
  headers: { "content-type": "application/json", location: "/v2/Customers/7" },
  body: body('{"Id":7}'),
};

describe("idempotency-keys: claims", () => {
  it("the first claim holds the key; repeats see it in flight, then the kept answer", async () => {
    await withKeys((k) => {
      const first = k.claim("h1", "f1", false, LEASE, T0);
      expect(first.kind).toBe("first");
      expect(k.claim("h1", "f1", false, LEASE, T0 + 1)).toEqual({ kind: "in-flight" });
      if (first.kind !== "first") return;
      expect(k.finish("h1", first.holder, { kind: "answer", answer: ANSWER })).toBe(true);
      const replay = k.claim("h1", "f1", false, LEASE, T0 + 2);
      expect(replay).toMatchObject({
        kind: "replay",
        answer: { status: 201, headers: ANSWER.headers },
      });
      if (replay.kind === "replay")
        expect(new TextDecoder().decode(replay.answer.body ?? new ArrayBuffer(0))).toBe('{"Id":7}');
    });
  });

  it("another fingerprint is a mismatch, in flight or done", async () => {
    await withKeys((k) => {
      k.claim("h1", "f1", false, LEASE, T0);
      expect(k.claim("h1", "f2", true, LEASE, T0)).toEqual({ kind: "mismatch" });
    });
  });

  it("a release frees the key for any request; only the holder can finish", async () => {
    await withKeys((k) => {
      const first = k.claim("h1", "f1", false, LEASE, T0);
      if (first.kind !== "first") throw new Error("not first");
      expect(k.finish("h1", "someone-else", { kind: "release" })).toBe(false);
      expect(k.finish("h1", first.holder, { kind: "release" })).toBe(true);
      expect(k.claim("h1", "f2", false, LEASE, T0 + 1).kind).toBe("first");
    });
  });

  it("an unknown outcome is told as such, or handed to a caller that can recheck it", async () => {
    await withKeys((k) => {
      const first = k.claim("h1", "f1", true, LEASE, T0);
      if (first.kind !== "first") throw new Error("not first");
      k.finish("h1", first.holder, { kind: "unknown" });
      expect(k.claim("h1", "f1", false, LEASE, T0 + 1)).toEqual({ kind: "unknown" });
      const recheck = k.claim("h1", "f1", true, LEASE, T0 + 2);
      expect(recheck.kind).toBe("recheck");
      // While one rechecks, the others wait; the first holder's late finish changes nothing.
      expect(k.claim("h1", "f1", true, LEASE, T0 + 3)).toEqual({ kind: "in-flight" });
      expect(k.finish("h1", first.holder, { kind: "answer", answer: ANSWER })).toBe(false);
      if (recheck.kind === "recheck")
        k.finish("h1", recheck.holder, { kind: "answer", answer: ANSWER });
      expect(k.claim("h1", "f1", false, LEASE, T0 + 4).kind).toBe("replay");
    });
  });

  it("an in-flight claim whose lease ran out counts as unknown (its holder may have sent it)", async () => {
    await withKeys((k) => {
      const first = k.claim("h1", "f1", false, T0 + 1_000, T0);
      expect(k.claim("h1", "f1", false, LEASE, T0 + 1_000)).toEqual({ kind: "unknown" });
      if (first.kind === "first")
        expect(k.finish("h1", first.holder, { kind: "answer", answer: ANSWER })).toBe(false);
    });
  });

  it("caps a lease at the longest deadline and its margin", async () => {
    await withKeys((k) => {
      k.claim("h1", "f1", false, T0 + 10 * IDEMPOTENCY_TTL_MS, T0);
      expect(k.claim("h1", "f1", false, LEASE, T0 + 136_000)).toEqual({ kind: "unknown" });
    });
  });
});

describe("idempotency-keys: retention", () => {
  it("keeps a record IDEMPOTENCY_TTL_MS from its first claim; then the key is new again and the row is purged", async () => {
    await withKeys((k, sql) => {
      const first = k.claim("h1", "f1", false, LEASE, T0);
      if (first.kind === "first") k.finish("h1", first.holder, { kind: "answer", answer: ANSWER });
      k.claim("h2", "f2", false, LEASE, T0 + 1_000);
      expect(k.dueAt()).toBe(T0 + IDEMPOTENCY_TTL_MS);
      expect(k.claim("h1", "f1", false, LEASE, T0 + IDEMPOTENCY_TTL_MS - 1).kind).toBe("replay");
      k.purge(T0 + IDEMPOTENCY_TTL_MS);
      expect(sql.exec("SELECT key_hash FROM idempotency_keys").toArray()).toEqual([
        { key_hash: "h2" },
      ]);
      expect(k.dueAt()).toBe(T0 + 1_000 + IDEMPOTENCY_TTL_MS);
      expect(
        k.claim("h1", "other", false, LEASE + IDEMPOTENCY_TTL_MS, T0 + IDEMPOTENCY_TTL_MS).kind,
      ).toBe("first");
      k.clear();
      expect(k.dueAt()).toBeNull();
    });
  });
});
