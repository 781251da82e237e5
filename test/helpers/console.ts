/**
 * Helpers of the console's tests: signing in as the operator, and reading and posting the
 * console's pages with the session cookie and the page's CSRF token, as a browser would.
 */
import { expect } from "vitest";
import { gw } from "./gateway";

export const OPERATOR_TOKEN = "local-admin-token";

/** A form body. */
export function form(fields: Record<string, string>): RequestInit {
  // "manual": the gateway's fetcher would otherwise follow the console's 303s, without the cookie.
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  };
}

/** The session cookie's `name=value` of a `Set-Cookie` header, or null. */
export function cookieOf(res: Response): string | null {
  const m = /^(lg_console=[^;]*)/.exec(res.headers.get("set-cookie") ?? "");
  return m?.[1] ?? null;
}

/** The CSRF token in a page's forms. */
export function csrfIn(page: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(page);
  expect(m, "a form with a CSRF token").not.toBeNull();
  return m?.[1] ?? "";
}

/** Signs in; answers a client that sends the session cookie, and the CSRF token of its pages. */
export async function signIn() {
  const res = await gw("/console/sign-in", form({ token: OPERATOR_TOKEN }));
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/console");
  const cookie = cookieOf(res) ?? "";
  const get = (path: string, headers: Record<string, string> = {}) =>
    gw(path, { headers: { cookie, ...headers }, redirect: "manual" });
  const csrf = csrfIn(await (await get("/console")).text());
  return {
    cookie,
    csrf,
    get,
    /** A page's HTML; fails unless it answers 200. */
    page: async (path: string) => {
      const r = await get(path);
      const text = await r.text();
      expect(r.status, text).toBe(200);
      return text;
    },
    /** Posts a form with the session's CSRF token (unless `fields` brings its own). */
    post: (
      path: string,
      fields: Record<string, string> = {},
      headers: Record<string, string> = {},
    ) => {
      const init = form({ csrf, ...fields });
      return gw(path, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), cookie, ...headers },
        redirect: "manual",
      });
    },
  };
}

/** Text as Hono's JSX escapes it into a page, to find a value in a page's HTML. */
export const escapeHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

/** A signed-in operator's session (`signIn`). */
export type Session = Awaited<ReturnType<typeof signIn>>;

/** The `lg_flash=…` pair a form's answer set, or null. */
export const flashOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((line) => /^(lg_flash=[^;]+)/.exec(line)?.[1])
    .find(Boolean) ?? null;

/**
 * Follows a form's 303 as a browser does, the flash cookie with it: the page, and the answer (its
 * `Set-Cookie` clears the flash).
 */
export async function follow(s: Session, res: Response) {
  expect(res.status, await res.clone().text()).toBe(303);
  const flash = flashOf(res);
  const location = res.headers.get("location") ?? "";
  const page = await s.get(location, flash ? { cookie: `${s.cookie}; ${flash}` } : {});
  const html = await page.text();
  expect(page.status, html).toBe(200);
  return { html, page, location, flash };
}
