/**
 * The tenant's OAuth grants (`src/assistants/tenant/assistant-grants.ts`), the authority the MCP
 * door asks: live only under the registration they were made under and before their end, capped per
 * tenant, their use noted at most once a minute, purged at their end.
 */
import { describe, expect, it } from "vitest";
import {
  AssistantGrants,
  LAST_USED_PRECISION_MS,
  MAX_LIVE_GRANTS,
  type NewGrant,
} from "../../../src/assistants/tenant/assistant-grants";
import { newGrantId } from "../../../src/assistants/oauth/grants";
import { withTenantSql } from "../../helpers/storage";

const withSql = <R>(run: (sql: SqlStorage) => R | Promise<R>) =>
  withTenantSql("assistant-grants", run);
const T0 = Date.parse("2026-11-26T10:00:00.000Z");
const HOUR = 3_600_000;

const grant = (over: Partial<NewGrant> = {}): NewGrant => ({
  id: newGrantId(),
  clientId: "https://claude.ai/oauth/mcp-client-metadata",
  clientName: "Claude",
  redirectHost: "claude.ai",
  scope: "read",
  approvedBy: "key:0123abcd",
  expiresAt: T0 + HOUR,
  ...over,
});

describe("assistant grants", () => {
  it("a grant is live under its registration until its end, and not a moment after", async () => {
    await withSql((sql) => {
      const g = new AssistantGrants(sql);
      const a = grant();
      expect(g.add(a, "reg-1", T0)).toEqual({ ok: true });
      expect(g.live(a.id, "reg-1", T0 + HOUR - 1)).toMatchObject({ id: a.id, scope: "read" });
      expect(g.live(a.id, "reg-1", T0 + HOUR)).toBeNull();
      expect(g.live(a.id, "reg-2", T0)).toBeNull();
      expect(g.live(newGrantId(), "reg-1", T0)).toBeNull();
      expect(g.dueAt()).toBe(T0 + HOUR);
      g.purge(T0 + HOUR);
      expect(g.list(T0)).toEqual([]);
      expect(g.dueAt()).toBeNull();
    });
  });

  it(`holds ${MAX_LIVE_GRANTS} live grants at most; one that ended frees its place`, async () => {
    await withSql((sql) => {
      const g = new AssistantGrants(sql);
      const early = grant({ expiresAt: T0 + 1000 });
      expect(g.add(early, "r", T0).ok).toBe(true);
      for (let i = 1; i < MAX_LIVE_GRANTS; i++) expect(g.add(grant(), "r", T0).ok).toBe(true);
      expect(g.add(grant(), "r", T0)).toEqual({ ok: false, reason: "full" });
      expect(g.add(grant(), "r", T0 + 1000)).toEqual({ ok: true });
      expect(g.list(T0 + 1000)).toHaveLength(MAX_LIVE_GRANTS);
    });
  });

  it("notes a use at most once a minute; revoking removes the row", async () => {
    await withSql((sql) => {
      const g = new AssistantGrants(sql);
      const a = grant();
      g.add(a, "r", T0);
      const use = (at: number) => {
        const live = g.live(a.id, "r", at);
        if (live) g.touch(live, at);
        return g.live(a.id, "r", at)?.lastUsedAt;
      };
      expect(use(T0 + 10)).toBe(T0 + 10);
      expect(use(T0 + 10 + LAST_USED_PRECISION_MS - 1)).toBe(T0 + 10);
      expect(use(T0 + 10 + LAST_USED_PRECISION_MS)).toBe(T0 + 10 + LAST_USED_PRECISION_MS);
      expect(g.revoke(a.id)).toBe(true);
      expect(g.revoke(a.id)).toBe(false);
      expect(g.live(a.id, "r", T0)).toBeNull();
    });
  });

  it("lists live grants newest first; clear empties the table", async () => {
    await withSql((sql) => {
      const g = new AssistantGrants(sql);
      const [a, b] = [grant({ clientName: "A" }), grant({ clientName: "B" })];
      g.add(a, "r", T0);
      g.add(b, "r", T0 + 5);
      expect(g.list(T0 + 6).map((x) => x.clientName)).toEqual(["B", "A"]);
      expect(g.clear()).toBe(2);
      expect(g.list(T0)).toEqual([]);
    });
  });
});
