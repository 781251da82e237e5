/**
 * @module
 * `/onboarding/{environment}/{page id}`: the page a TemporaryUrl opens. The user sees the clients
 * offered (every client of the environment, or the one with the organization number the
 * integration asked for), may create a new company on the spot, and approves or declines; the
 * browser is then sent to the integration's RedirectUri with `token` (or `error=access_denied`).
 *
 * There is no sign-in: the sandbox has no users. The page id (256 random bits, stored only as a
 * hash) is the capability, so the form needs no CSRF token: another site cannot post to an address
 * it does not know, and the page sends no Referer and cannot be framed.
 */
import { Hono } from "hono";
import { z } from "zod";
import { platformOf, type SandboxApp } from "../app";
import type { OnboardingDecided } from "../durable/onboarding-book";
import { ENVIRONMENTS } from "../env";
import { approvalPage, closedPage, PAGE_HEADERS } from "../lib/onboarding-page";

const Params = z.object({
  environment: z.enum(ENVIRONMENTS),
  pageId: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The form as posted; a single checked box arrives as a string, several as a list. */
const Form = z.object({
  decision: z.enum(["approve", "decline"]),
  client: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
  companyName: z.string().trim().max(200).optional().default(""),
  organizationNumber: z.string().trim().max(20).optional().default(""),
});

/** The new company the form asks for, null for none, or what is wrong with it. */
function newCompany(
  f: z.output<typeof Form>,
): { name: string; organizationNumber: string } | null | string {
  if (!f.companyName && !f.organizationNumber) return null;
  if (!f.companyName) return "Give the new company a name.";
  if (!/^[0-9]{9}$/.test(f.organizationNumber)) return "An organization number has 9 digits.";
  return { name: f.companyName, organizationNumber: f.organizationNumber };
}

export const onboardingPageRoutes = new Hono<SandboxApp>()
  .get("/:environment/:pageId", async (c) => {
    const p = Params.safeParse(c.req.param());
    const view = p.success
      ? await platformOf(c.env, p.data.environment).onboardingView(p.data.pageId)
      : ({ state: "unknown" } as const);
    if (!p.success || view.state !== "pending") {
      const closed = closedPage(view.state === "pending" ? "unknown" : view.state);
      return c.html(closed.page, closed.status, PAGE_HEADERS);
    }
    return c.html(
      approvalPage(p.data.environment, view, null, { companyName: "", organizationNumber: "" }),
      200,
      PAGE_HEADERS,
    );
  })
  .post("/:environment/:pageId", async (c) => {
    const p = Params.safeParse(c.req.param());
    if (!p.success) return c.html(closedPage("unknown").page, 404, PAGE_HEADERS);
    const { environment, pageId } = p.data;
    const platform = platformOf(c.env, environment);
    const form = Form.safeParse(await c.req.parseBody({ all: true }).catch(() => ({})));
    const entered = form.success ? form.data : { companyName: "", organizationNumber: "" };
    let decided: OnboardingDecided;
    if (!form.success)
      decided = { ok: false, reason: "invalid", message: "Choose Approve or Decline." };
    else {
      const company = newCompany(form.data);
      const approve = form.data.decision === "approve";
      // A half-filled new company matters only to an approval.
      decided =
        approve && typeof company === "string"
          ? { ok: false, reason: "invalid", message: company }
          : await platform.decideOnboarding(environment, pageId, {
              approve,
              clientIds: form.data.client,
              newCompany: typeof company === "string" ? null : company,
            });
    }
    if (decided.ok) return c.redirect(decided.location, 303);
    if (decided.reason !== "invalid") {
      const closed = closedPage(decided.reason);
      return c.html(closed.page, closed.status, PAGE_HEADERS);
    }
    // Shown again with the reason, unless the page meanwhile stopped working.
    const view = await platform.onboardingView(pageId);
    if (view.state !== "pending") {
      const closed = closedPage(view.state);
      return c.html(closed.page, closed.status, PAGE_HEADERS);
    }
    return c.html(approvalPage(environment, view, decided.message, entered), 400, PAGE_HEADERS);
  });
