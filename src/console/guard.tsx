/**
 * @module The console's doors: no usable operator token, no console; no live session, no page; a
 * form post also needs the CSRF token and this site. A refused post gets a page saying why, never a
 * redirect that would look like success. See docs/design/console-session.md.
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

/** The sessions' signing key, or a 503 where the operator token is unusable (as on `/admin`). */
export async function operatorKey(
  c: Context<ConsoleApp>,
): Promise<{ token: string; key: CryptoKey }> {
  const token = usableAdminToken(c.var.config, "console");
  return { token, key: await sessionKey(token) };
}

export const fromOtherSite = (c: Context) =>
  crossSite(
    { origin: c.req.header("origin"), fetchSite: c.req.header("sec-fetch-site") },
    c.req.url,
  );

const TO_CONSOLE = { href: "/console", text: "Go to the console" };
const TO_SIGN_IN = { href: "/console/sign-in", text: "Sign in" };

const refusal = (c: Context, status: 401 | 403, page: Parameters<typeof MessagePage>[0]) =>
  html(c, <MessagePage {...page} />, status);

export const otherSitePage = (c: Context) =>
  refusal(c, 403, {
    title: "Refused",
    message: "This form was sent from another site, so it was not accepted.",
    link: TO_CONSOLE,
  });

/** Lets a request in with a live session, sliding its cookie; `form`: checks CSRF and site too. */
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
    // A handler that set the session cookie itself (sign-out) has the last word; a flash does not.
    if (c.res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))) return;
    const slid = slide(live, now);
    c.res.headers.append(
      "set-cookie",
      sessionCookie(await encodeSession(key, slid), (slid.expiresAt - now) / 1000, c.req.url),
    );
  };
}
