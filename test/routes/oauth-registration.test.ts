/**
 * The caps of dynamic client registration through `POST /oauth/register`
 * (`src/durable/directory/oauth-registrations.ts`): a file of its own, since the count is the
 * gateway's, so another test's registrations would share its window.
 */
import { afterEach, describe, expect, it } from "vitest";
import { restoreClock, skipAhead } from "../helpers/clock";
import { register } from "../helpers/oauth";

afterEach(restoreClock);

describe("oauth registration: the caps", () => {
  it("admits 20 registrations in 10 minutes for the whole gateway, then 429 with Retry-After; a refused one gives its slot back", async () => {
    // Past every earlier registration's window: this test's registrations are the window's.
    await skipAhead(3_600_000);
    for (let i = 0; i < 5; i++)
      expect((await register({ redirect_uris: ["http://app.example/cb"] })).res.status).toBe(400);
    for (let i = 0; i < 20; i++) expect((await register()).res.status).toBe(201);
    const over = await register();
    expect(over.res.status).toBe(429);
    expect(over.res.headers.get("content-type")).toContain("application/problem+json");
    const retry = Number(over.res.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(600);
    expect(String(over.body.detail)).toContain("20 at most");
    await skipAhead(retry * 1000);
    expect((await register()).res.status).toBe(201);
  });
});
