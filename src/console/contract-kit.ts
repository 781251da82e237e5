/**
 * @module What the console's route declarations share: the heads of a page read and a form post
 * behind the session, the CSRF field, and the answers given before a handler runs.
 */
import { z } from "@hono/zod-openapi";
import { problemResponse } from "../kernel/openapi/problems";
import { SECURITY } from "../kernel/openapi/security";
import { htmlPage, redirect, tagged } from "../kernel/routes/contract-kit";
import { requireSession } from "./guard";

/** The console's routes without a session (signing in): tagged `console`, no credential. */
export const open = tagged("console", null);

const session = tagged("console", SECURITY.operatorSession);

/** A page read behind the session: a visitor without one is sent to sign in. */
export const read = { ...session.get, middleware: [requireSession({ form: false })] };

/** A form post behind the session: it also needs the CSRF token and this site as its origin. */
export const post = { ...session.post, middleware: [requireSession({ form: true })] };

/** The session's CSRF token, the field every form posts. */
export const Csrf = z.string().openapi({ description: "The session's CSRF token." });

/** An address over its failures: a problem, not a page, as it comes before the console's router. */
export const limited = { 429: problemResponse(429) };

/** `limited`, and a body over the cap, read before the session or token is checked (`capBody`). */
export const capped = { 413: problemResponse(413), ...limited };

/** Where the operator token is unusable, every console route answers this page. */
export const disabled = { 503: htmlPage("The console is disabled (no usable ADMIN_TOKEN).") };

/** The page of a route whose path names a tenant the gateway does not have. */
export const noTenant = { 404: htmlPage("No such tenant.") };

/** What a page read answers before its handler: sent to sign in, limited, or disabled. */
export const signedOut = {
  303: redirect("Not signed in: to /console/sign-in."),
  ...disabled,
  ...limited,
};

/** A form post's answers before its handler: a page, never a redirect that looks like success. */
export const refused = {
  ...capped,
  401: htmlPage("Not signed in (a form post)."),
  403: htmlPage("The form's CSRF token is missing or wrong, or it came from another site."),
  ...disabled,
};
