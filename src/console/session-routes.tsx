/**
 * @module
 * Signing in and out. Sign-in compares the operator token in constant time and answers a wrong one
 * with 401, which the inbound limit counts per address like any failed authentication
 * (`tenant/door/inbound-limit.ts`), so guessing the token here is as slow as at `/admin`.
 */
import { sessionCookie } from "./cookie";
import { encodeSession, newSession, revokeUntil } from "./session";
import { timingSafeEqual } from "../kernel/crypto";
import { directoryStub } from "../kernel/stubs";
import * as route from "./contract";
import { fromOtherSite, operatorKey, otherSitePage } from "./guard";
import type { ConsoleRouter } from "./router";
import { SignInPage } from "./pages/sign-in";
import { html, see } from "./render";

export function sessionRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.signInPage, async (c) => {
      await operatorKey(c);
      return html(c, <SignInPage />);
    })
    .openapi(route.signIn, async (c) => {
      const { token, key } = await operatorKey(c);
      if (fromOtherSite(c)) return otherSitePage(c);
      if (!timingSafeEqual(c.req.valid("form").token, token))
        return html(c, <SignInPage error="That token is not valid." />, 401);
      const now = Date.now();
      const session = newSession(now);
      return see(c, "/console", {
        "set-cookie": sessionCookie(
          await encodeSession(key, session),
          (session.expiresAt - now) / 1000,
          c.req.url,
        ),
      });
    })
    .openapi(route.signOut, async (c) => {
      const { session } = c.var.console;
      await directoryStub(c.env).revokeSession(session.id, revokeUntil(session));
      return see(c, "/console/sign-in", { "set-cookie": sessionCookie("", 0, c.req.url) });
    });
}
