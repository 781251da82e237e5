/**
 * @module
 * The approval page for a gateway key's holder (`/oauth/authorize`): the key, typed into the form,
 * is checked by its tenant's object and used for nothing else; a wrong key counts against the
 * person's address, never the tenant it claims. Declarations: `assistants/oauth/contract.ts`.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { GatewayApp } from "../../kernel/app";
import { fromOtherSite } from "../../console/guard";
import { claimedTenant } from "../../tenant/key-format";
import { log } from "../../kernel/log";
import {
  beginApproval,
  completeApproval,
  denyApproval,
  type ApprovalFacts,
  type Begun,
  type Completed,
} from "./approve";
import { knownProblem, PROBLEM_TYPES } from "../../kernel/problem";
import { keyId } from "../../request-log/record";
import { asKeyHolder } from "../../kernel/stubs";
import { countApprovalPage, countFailure } from "../../tenant/door/inbound-limit";
import { validationProblem } from "../../kernel/middleware/validate";
import { MessagePage } from "../../console/layout";
import { html } from "../../console/render";
import { oauthAuthorize, oauthAuthorizePage } from "./contract";
import { KeyApprovalPage } from "./approval-page";
import { approvalHtml } from "./render";

const originOf = (c: Context) => new URL(c.req.url).origin;

type ApprovalPage = Parameters<typeof approvalHtml>[0];

/** A page that only says something, with the status it is answered with. */
export const messagePage = (
  c: Context,
  title: string,
  message: string,
  status: 400 | 401 | 403 | 429 | 500 | 503,
) => html(c, <MessagePage title={title} message={message} />, status);

/** The answer of a begun approval: a redirect, a refusal, or the page `page` draws. */
export async function approvalAnswer(
  c: Context,
  begun: Begun,
  page: (facts: ApprovalFacts) => ApprovalPage | Promise<ApprovalPage>,
  status: 200 | 401 = 200,
): Promise<Response> {
  if (begun.kind === "redirect")
    return new Response(null, {
      status: 302,
      headers: { location: begun.location, "cache-control": "no-store" },
    });
  if (begun.kind === "refused") return messagePage(c, "Cannot connect", begun.message, 400);
  const { redirectUri } = begun.facts.consent;
  return approvalHtml(await page(begun.facts), redirectUri, begun.headers, status);
}

const keyPage = (c: Context<GatewayApp>, begun: Begun, error?: string, status?: 200 | 401) =>
  approvalAnswer(
    c,
    begun,
    (facts) => <KeyApprovalPage facts={facts} origin={originOf(c)} error={error} />,
    status,
  );

/** The answer of a completed (or refused) approval. */
export function finished(c: Context, done: Completed): Response | Promise<Response> {
  return done.kind === "redirect"
    ? done.response
    : messagePage(c, "Nothing was approved", done.message, 400);
}

const router = new OpenAPIHono<GatewayApp>({ defaultHook: validationProblem });
// A problem (a malformed form, an outage) as a page a person can read, with its status.
router.onError((err, c) => {
  const problem = knownProblem(err);
  if (!problem) {
    log.error("unhandled", {
      requestId: c.get("requestId"),
      route: c.req.routePath,
      error: err.name,
    });
    return messagePage(
      c,
      "Something went wrong",
      `Quote request id ${c.get("requestId")} when you report it.`,
      500,
    );
  }
  const { status, title } = PROBLEM_TYPES[problem.type];
  const res = messagePage(c, title, problem.detail, status as 400);
  return res;
});

export const approvalRoutes = router
  .openapi(oauthAuthorizePage, async (c) => {
    await countApprovalPage(c);
    return keyPage(c, await beginApproval(c.env, originOf(c), new URL(c.req.url).search));
  })
  .openapi(oauthAuthorize, async (c) => {
    if (fromOtherSite(c))
      return messagePage(
        c,
        "Refused",
        "This form was sent from another site, so it was not accepted.",
        403,
      );
    const form = c.req.valid("form");
    const origin = originOf(c);
    if (form.decision === "deny")
      return finished(c, await denyApproval(c.env, origin, c.req.raw, form.consent));
    const key = form.gatewayKey?.trim() ?? "";
    const claimed = claimedTenant(key);
    const caller = claimed && { tenant: claimed.name, key };
    const tenant = caller ? await asKeyHolder(c.env, caller, (f) => f.tenant()) : null;
    if (!caller || !tenant?.ok) {
      // Per address: a count by the tenant named would let anyone refuse its genuine holder.
      if (claimed && (await countFailure(c, "approval-key")))
        return messagePage(
          c,
          "Too many attempts",
          "Too many wrong keys from this address; wait a minute and start again.",
          429,
        );
      // The page again is a new consent record: counted like any approval page.
      await countApprovalPage(c);
      return keyPage(
        c,
        await beginApproval(c.env, origin, form.request),
        "That gateway key is not valid. Nothing was approved: type it again.",
        401,
      );
    }
    const done = await completeApproval(c.env, origin, c.req.raw, {
      handle: form.consent,
      tenant: tenant.value,
      scope: form.scope,
      lifetime: form.lifetime,
      approvedBy: `key:${await keyId(key)}`,
      record: (grant) => asKeyHolder(c.env, caller, (f) => f.grantAssistant(grant)),
    });
    return finished(c, done);
  });
