/**
 * The shared budget as an assistant meets it (`src/assistants/mcp/results.ts`): the API's 429
 * passed on as an `isError` result saying when to try again, and the governor's 503 (the
 * environment paused: no permit before the call's deadline) likewise, with nothing sent. Both are
 * audited as `retry`. Its own file: it pauses the production environment and evicts its governor
 * afterwards, as test/upstream/trust.test.ts does.
 */
import { env } from "cloudflare:workers";
import { evictDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { ECHO_MS } from "../../src/upstream/rate/pacer";
import { signIn } from "../helpers/console";
import { restoreClock, skipAhead } from "../helpers/clock";
import { control, fresh, stats, tenant } from "../helpers/gateway";
import { errorOf, mcpClient } from "../helpers/mcp";

const GOVERNOR = env.RATE_GOVERNOR;

afterEach(restoreClock);

describe("mcp budget: try again later", () => {
  it("the API's 429 and the governor's 503 become isError results that say when to try again", async () => {
    await fresh();
    const t = await tenant("production");
    const client = await mcpClient(t.gatewayKey);
    await control("PUT", "/settings", {
      faults: [{ kind: "throttle", target: "api", count: 2, retryAfterSeconds: 3600 }],
    });
    try {
      // A 429 whose Retry-After is past the call's deadline comes back as the API's answer.
      const throttled = await errorOf(client, "read", { path: "/Customers" });
      expect(throttled).toMatch(
        /^The API answered 429 to GET \/Customers: Rate limit is exceeded\..* Try again in 3600 seconds\.$/,
      );
      // A second one, after its echo second, pauses the environment (as /v2 sees it too).
      await skipAhead(ECHO_MS);
      await errorOf(client, "read", { path: "/Customers" });
      const before = (await stats()).requests;
      const refused = await errorOf(client, "read", { path: "/Customers" });
      expect((await stats()).requests).toBe(before);
      expect(refused).toMatch(
        /^Service unavailable \(503\): The production environment's shared rate limit cannot take this call before its deadline\. Try again in \d+ seconds?\.$/,
      );
      const wait = Number(/in (\d+) second/.exec(refused)?.[1]);
      expect(wait).toBeGreaterThan(1);
      expect(wait).toBeLessThanOrEqual(60);
      const page = await (await signIn()).page(`/console/tenants/production/${t.client}/requests`);
      expect(page).toContain(">retry<");
    } finally {
      await evictDurableObject(GOVERNOR.get(GOVERNOR.idFromName("production")));
    }
  });
});
