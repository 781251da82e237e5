import { describe, expect, it } from "vitest";
import {
  crossSite,
  csrfToken,
  csrfValid,
  isLoopback,
  sessionCookie,
} from "../../src/console/cookie";
import {
  encodeSession,
  newSession,
  readSession,
  revokeUntil,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sessionKey,
  slide,
} from "../../src/console/session";

const T0 = Date.UTC(2026, 10, 23, 12);

describe("console session", () => {
  it("reads back a session it signed, until it lapses", async () => {
    const key = await sessionKey("operator-token-one");
    const s = newSession(T0);
    const cookie = await encodeSession(key, s);
    expect(await readSession(key, cookie, T0 + 1000)).toEqual(s);
    expect(await readSession(key, cookie, T0 + SESSION_IDLE_MS)).toBeNull();
  });

  it("refuses a session signed under another ADMIN_TOKEN: changing the token ends every session", async () => {
    const s = newSession(T0);
    const cookie = await encodeSession(await sessionKey("operator-token-one"), s);
    expect(await readSession(await sessionKey("operator-token-two"), cookie, T0 + 1000)).toBeNull();
  });

  it("refuses a tampered expiry, and junk", async () => {
    const key = await sessionKey("t");
    const s = newSession(T0);
    const [id, issued, expires, mac] = (await encodeSession(key, s)).split(".");
    expect(await readSession(key, `${id}.${issued}.${Number(expires) + 1}.${mac}`, T0)).toBeNull();
    for (const junk of [undefined, "", "a.b.c.d", `${id}.${issued}.${expires}`])
      expect(await readSession(key, junk, T0)).toBeNull();
  });

  it("slides by the idle time, never past the hard end", () => {
    const s = newSession(T0);
    expect(slide(s, T0 + 10 * 60_000).expiresAt).toBe(T0 + 10 * 60_000 + SESSION_IDLE_MS);
    expect(slide(s, T0 + SESSION_MAX_MS - 60_000).expiresAt).toBe(T0 + SESSION_MAX_MS);
    expect(revokeUntil(s)).toBe(T0 + SESSION_MAX_MS);
  });

  it("makes one CSRF token per session", async () => {
    const key = await sessionKey("t");
    const a = newSession(T0);
    const b = newSession(T0);
    expect(await csrfValid(key, a, await csrfToken(key, a))).toBe(true);
    expect(await csrfValid(key, a, await csrfToken(key, b))).toBe(false);
    expect(await csrfValid(key, a, undefined)).toBe(false);
  });
});

describe("console cookie", () => {
  it("is Secure except on loopback hosts", () => {
    expect(sessionCookie("v", 60, "https://gw.example/console")).toBe(
      "lg_console=v; Path=/console; Max-Age=60; HttpOnly; SameSite=Strict; Secure",
    );
    for (const url of [
      "http://127.0.0.1:8787/console",
      "http://localhost:8787/",
      "http://[::1]:8787/",
    ]) {
      expect(isLoopback(url)).toBe(true);
      expect(sessionCookie("v", 60, url)).not.toContain("Secure");
    }
    expect(isLoopback("http://127.0.0.2/")).toBe(false);
  });

  it("judges cross-site posts by Sec-Fetch-Site and Origin", () => {
    const url = "https://gw.example/console/sign-out";
    expect(crossSite({}, url)).toBe(false);
    expect(crossSite({ fetchSite: "same-origin", origin: "https://gw.example" }, url)).toBe(false);
    expect(crossSite({ fetchSite: "same-site" }, url)).toBe(true);
    expect(crossSite({ fetchSite: "cross-site" }, url)).toBe(true);
    expect(crossSite({ origin: "https://evil.example" }, url)).toBe(true);
    expect(crossSite({ origin: "null" }, url)).toBe(true);
  });
});
