/**
 * @module
 * The console's doors. `operatorKey` refuses the console altogether where the operator API is
 * refused (no `ADMIN_TOKEN`, or the committed development one outside local use). `requireSession`
 * lets a request in only with a valid, not signed-out session; a form post also needs the session's
 * CSRF token and must not come from another site. A refused page read is sent to sign in (303); a
 * refused post gets a page saying why (401 or 403), never a redirect that would look like success.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { ConsoleApp } from "./app";
import {
  cookieValue,
  crossSite,
  csrfToken,
  csrfValid,
  SESSION_COOKIE,
  sessionCookie,
} from "./cookie";
import { encodeSession, readSession, sessionKey, slide } from "./session";
import { directoryStub } from "../kernel/stubs";
import { usableAdminToken } from "../tenant/door/admin-auth";
import { MessagePage } from "./layout";
import { html, see } from "./render";

/**
 * The signing key of the console's sessions, or a 503 where the operator token is unusable (as
 * `requireAdmin` does).
 */
export async function operatorKey(
  c: Context<ConsoleApp>,
): Promise<{ token: string; key: CryptoKey }> {
  const token = usableAdminToken(c.var.config, "console");
  return { token, key: await sessionKey(token) };
}

/** Whether a post came from another site (see `crossSite`). */
export const fromOtherSite = (c: Context) =>
  crossSite(
    { origin: c.req.header("origin"), fetchSite: c.req.header("sec-fetch-site") },
    c.req.url,
  );

/** Where a refusal page leads on. */
const TO_CONSOLE = { href: "/console", text: "Go to the console" };
const TO_SIGN_IN = { href: "/console/sign-in", text: "Sign in" };

/** A page refusing a request, saying why and where to go on, with its 401 or 403. */
const refusal = (c: Context, status: 401 | 403, page: Parameters<typeof MessagePage>[0]) =>
  html(c, <MessagePage {...page} />, status);

/** The page refusing a post from another site. */
export const otherSitePage = (c: Context) =>
  refusal(c, 403, {
    title: "Refused",
    message: "This form was sent from another site, so it was not accepted.",
    link: TO_CONSOLE,
  });

/**
 * Lets a request in with a valid session, and slides the session's cookie forward on the answer.
 * `form`: the request is a form post, which also needs the CSRF token and this site as its origin.
 */
export function requireSession(opts: { form: boolean }): MiddlewareHandler<ConsoleApp> {
  return async function requireSession(c, next) {
    const { key } = await operatorKey(c);
    const now = Date.now();
    const session = await readSession(key, cookieValue(c.req.header("cookie")), now);
    const live =
      session && !(await directoryStub(c.env).sessionRevoked(session.id)) ? session : null;
    if (!live) {
      if (!opts.form) return see(c, "/console/sign-in");
      return refusal(c, 401, {
        title: "Please sign in",
        message: "You are not signed in, or your session has ended. Sign in and try again.",
        link: TO_SIGN_IN,
      });
    }
    const csrf = await csrfToken(key, live);
    if (opts.form) {
      if (fromOtherSite(c)) return otherSitePage(c);
      // Read from the body cache: `capBody` (src/index.ts) read it, at most its cap, before this.
      const form = await c.req.formData().catch(() => null);
      if (!(await csrfValid(key, live, form?.get("csrf")))) {
        return refusal(c, 403, {
          title: "The form expired",
          message:
            "The form expired, or it did not come from this console. Open the page again and send the form once more.",
          csrf,
          link: TO_CONSOLE,
        });
      }
    }
    c.set("console", { session: live, key, csrf });
    await next();
    // A handler that set the session's cookie itself (sign-out) has the last word; a flash cookie
    // (`console/flash.ts`) is another cookie and does not stop the slide.
    if (c.res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))) return;
    const slid = slide(live, now);
    c.res.headers.append(
      "set-cookie",
      sessionCookie(await encodeSession(key, slid), (slid.expiresAt - now) / 1000, c.req.url),
    );
  };
}
