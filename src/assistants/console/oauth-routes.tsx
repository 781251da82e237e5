/**
 * @module
 * The operator's side of OAuth in the console: approving a connection for a tenant it picks (the
 * session stands where the key stands on `assistants/oauth/approval-routes.tsx`), and revoking a
 * grant. Declarations: `oauth-contract.ts`.
 */
import type { Context } from "hono";
import type { ConsoleApp } from "../../console/app";
import { tenantPath } from "../../console/views";
import { beginApproval, completeApproval, denyApproval, type Begun } from "../oauth/approve";
import { revokeGrantRecords } from "../oauth/revoke";
import { unwrap } from "../../kernel/outcome";
import { asOperator, directoryStub, parseTenantName, tenantName } from "../../kernel/stubs";
import { countApprovalPage } from "../../tenant/door/inbound-limit";
import { OperatorApprovalPage } from "../oauth/approval-page";
import { approvalAnswer, finished } from "../oauth/approval-routes";
import { seeWith } from "../../console/flash-redirect";
import * as route from "./oauth-contract";
import type { ConsoleRouter } from "../../console/router";

const originOf = (c: Context) => new URL(c.req.url).origin;

/** The operator's page of a begun approval, or where its request leads instead. */
const operatorPage = (
  c: Context<ConsoleApp>,
  begun: Begun,
  extra: { error?: string; tenant?: string } = {},
) =>
  approvalAnswer(c, begun, async (facts) => (
    <OperatorApprovalPage
      facts={facts}
      origin={originOf(c)}
      csrf={c.var.console.csrf}
      tenants={await directoryStub(c.env).list()}
      {...extra}
    />
  ));

/** Binds the console's OAuth routes to `router`. */
export function oauthRoutes(router: ConsoleRouter) {
  return router
    .openapi(route.operatorApprovalPage, async (c) => {
      await countApprovalPage(c);
      return operatorPage(c, await beginApproval(c.env, originOf(c), c.req.valid("query").request));
    })
    .openapi(route.operatorApprove, async (c) => {
      const form = c.req.valid("form");
      const origin = originOf(c);
      if (form.decision === "deny")
        return finished(c, await denyApproval(c.env, origin, c.req.raw, form.consent));
      // The tenant is checked before the handle is spent: a wrong pick shows the page again.
      const parsed = parseTenantName(form.tenant ?? "");
      const registered =
        parsed.ok &&
        (
          await asOperator(c.env, tenantName(parsed.value.environment, parsed.value.client), (f) =>
            f.registrationId(),
          )
        ).ok;
      if (!parsed.ok || !registered) {
        await countApprovalPage(c);
        return operatorPage(c, await beginApproval(c.env, origin, form.request), {
          error: "Pick a registered tenant. Nothing was approved.",
        });
      }
      const tenant = tenantName(parsed.value.environment, parsed.value.client);
      const done = await completeApproval(c.env, origin, c.req.raw, {
        handle: form.consent,
        tenant,
        scope: form.scope,
        lifetime: form.lifetime,
        approvedBy: "operator",
        record: (grant) => asOperator(c.env, tenant, (f) => f.grantAssistant(grant)),
      });
      return finished(c, done);
    })
    .openapi(route.revokeGrant, async (c) => {
      const p = c.req.valid("param");
      const name = tenantName(p.environment, p.client);
      unwrap(await asOperator(c.env, name, (f) => f.revokeAssistantGrant(p.grant)));
      await revokeGrantRecords(c.env, originOf(c), name, p.grant);
      return seeWith(c, tenantPath(p.environment, p.client), {
        at: "assistants",
        notice: `Connection ${p.grant} revoked: its tokens are refused from now on.`,
      });
    });
}
