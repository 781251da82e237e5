/**
 * The tenant's prepared writes (`src/assistants/tenant/write-confirmations.ts`): bounded per
 * principal and per tenant while they wait, with a refusal that says when room comes back.
 */
import { describe, expect, it } from "vitest";
import {
  CONFIRM_WITHIN_MS,
  MAX_UNCONFIRMED_PER_PRINCIPAL,
  MAX_UNCONFIRMED_PER_TENANT,
  WriteConfirmations,
  type PreparedWrite,
} from "../../../src/assistants/tenant/write-confirmations";
import { withTenantSql } from "../../helpers/storage";

const withConfirmations = <R>(run: (w: WriteConfirmations, sql: SqlStorage) => R | Promise<R>) =>
  withTenantSql("write-confirmations", (sql) => run(new WriteConfirmations(sql), sql));

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const WRITE: PreparedWrite = {
  method: "POST",
  path: "/Customers",
  search: "",
  body: '{"Name":"Fjord AS"}',
  operationClass: "draft",
};
let handles = 0;
const ask = (principal: string) => ({ handleHash: `h${++handles}`, principal, write: WRITE });
const rows = (sql: SqlStorage) =>
  sql.exec("SELECT COUNT(*) AS n FROM write_confirmations").one().n as number;

describe("write-confirmations: bounds", () => {
  it("refuses one principal's write past its cap, says when room comes back, and keeps nothing", async () => {
    await withConfirmations((w, sql) => {
      for (let i = 0; i < MAX_UNCONFIRMED_PER_PRINCIPAL; i++)
        expect(w.stash(ask("key:a"), "r1", T0 + i).ok).toBe(true);
      const refused = w.stash(ask("key:a"), "r1", T0 + 100);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.reason).toBe("too-many");
        expect(refused.error.detail).toContain(`${MAX_UNCONFIRMED_PER_PRINCIPAL} prepared writes`);
        // The earliest waiting row ends CONFIRM_WITHIN_MS after T0.
        expect(refused.error.retryAfterSeconds).toBe(Math.ceil((CONFIRM_WITHIN_MS - 100) / 1000));
      }
      expect(rows(sql)).toBe(MAX_UNCONFIRMED_PER_PRINCIPAL);
      // Another principal of the tenant is not refused by it.
      expect(w.stash(ask("grant:b"), "r1", T0 + 100).ok).toBe(true);
    });
  });

  it("refuses any principal once the tenant keeps its cap, and frees room as rows are confirmed or expire", async () => {
    await withConfirmations((w, sql) => {
      const principals = MAX_UNCONFIRMED_PER_TENANT / MAX_UNCONFIRMED_PER_PRINCIPAL;
      const first = ask("p0");
      expect(w.stash(first, "r1", T0).ok).toBe(true);
      for (let p = 0; p < principals; p++)
        for (let i = p === 0 ? 1 : 0; i < MAX_UNCONFIRMED_PER_PRINCIPAL; i++)
          expect(w.stash(ask(`p${p}`), "r1", T0 + 1).ok).toBe(true);
      expect(rows(sql)).toBe(MAX_UNCONFIRMED_PER_TENANT);
      const refused = w.stash(ask("newcomer"), "r1", T0 + 2);
      expect(refused.ok ? null : refused.error.detail).toContain("the tenant already keeps");
      expect(rows(sql)).toBe(MAX_UNCONFIRMED_PER_TENANT);
      // A confirmed row no longer waits: its room is the newcomer's.
      expect(w.take(first.handleHash, "p0", "r1", T0 + 3).kind).toBe("ready");
      expect(w.stash(ask("newcomer"), "r1", T0 + 4).ok).toBe(true);
      // Past the wait, the unconfirmed rows no longer count, even before the alarm purges them.
      expect(w.stash(ask("later"), "r1", T0 + CONFIRM_WITHIN_MS + 5).ok).toBe(true);
    });
  });

  it("refuses a body over the cap at the schema, before anything is stored", async () => {
    await withConfirmations((w, sql) => {
      const body = JSON.stringify({ Name: "x".repeat(64 * 1024) });
      expect(() => w.stash({ ...ask("key:a"), write: { ...WRITE, body } }, "r1", T0)).toThrow();
      expect(rows(sql)).toBe(0);
    });
  });
});
