/**
 * @module
 * The stand-in of the Vipps MobilePay endpoints a settlement is read with: `POST /accesstoken/get`
 * (the sales unit's `client_id`, `client_secret` and `Ocp-Apim-Subscription-Key` as headers),
 * `GET /settlement/v1/ledgers` and `GET /report/v2/ledgers/{ledgerId}/{funds|fees}/dates/{date}`
 * (`cursor`, `pageSize` 1–1000), each with the token as `Authorization: Bearer` and the
 * subscription key. What is taken from Vipps's documentation and what is guessed:
 * docs/sandbox.md. Paths are matched as sent.
 */
import { Hono, type Context } from "hono";
import type { SandboxApp } from "../app";
import { bearerOf, subscriptionKeyOf } from "./guards";
import { MAX_PAGE, DEFAULT_PAGE, type VippsResult } from "../durable/vipps";

/** The stand-in's one object. */
export const vippsOf = (env: SandboxEnv) => env.VIPPS.get(env.VIPPS.idFromName("vipps"));

/** A result of the stand-in as a response. */
export const vippsResponse = (r: VippsResult) =>
  new Response(r.json, { status: r.status, headers: { "content-type": "application/json" } });

const SUBSCRIPTION = "ocp-apim-subscription-key";

/** The Report API's 401 body for a missing or wrong token or subscription key. */
const UNAUTHORIZED = { code: "Unauthorized", message: "Please check your API keys" };

/** The merchant of a request's token, or the 401; counts the request under `route`. */
async function merchant(c: Context<SandboxApp>, route: string) {
  const msn = await vippsOf(c.env).authenticate(
    bearerOf(c.req.raw),
    subscriptionKeyOf(c.req.raw),
    route,
  );
  return msn === null
    ? { ok: false as const, res: Response.json(UNAUTHORIZED, { status: 401 }) }
    : { ok: true as const, msn };
}

const badRequest = (detail: string) =>
  Response.json({ title: "Bad Request", status: 400, detail }, { status: 400 });

export const vippsApiRoutes = new Hono<SandboxApp>()
  .post("/accesstoken/get", async (c) =>
    vippsResponse(
      await vippsOf(c.env).accessToken(
        c.req.header("client_id") ?? "",
        c.req.header("client_secret") ?? "",
        c.req.header(SUBSCRIPTION) ?? "",
        Date.now(),
      ),
    ),
  )
  .get("/settlement/v1/ledgers", async (c) => {
    const m = await merchant(c, "/settlement/v1/ledgers");
    if (!m.ok) return m.res;
    const handles = new URL(c.req.url).searchParams
      .getAll("settlesForRecipientHandles")
      .flatMap((h) => h.split(","))
      .filter((h) => h !== "");
    return vippsResponse(await vippsOf(c.env).ledgers(m.msn, handles));
  })
  .get("/report/v2/ledgers/:ledgerId/:report/dates/:date", async (c) => {
    const m = await merchant(c, "/report/v2/ledgers/{ledgerId}/{report}/dates/{date}");
    if (!m.ok) return m.res;
    const report = c.req.param("report");
    const date = c.req.param("date");
    if (report !== "funds" && report !== "fees")
      return badRequest(`No report ${report.slice(0, 40)}: funds or fees.`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
      return badRequest("The date is not a date (yyyy-MM-dd).");
    const url = new URL(c.req.url);
    const sizeText = url.searchParams.get("pageSize") ?? String(DEFAULT_PAGE);
    const size = Number(sizeText);
    if (!/^\d+$/.test(sizeText) || size < 1 || size > MAX_PAGE)
      return badRequest(`pageSize is an integer from 1 to ${MAX_PAGE}.`);
    const cursor = url.searchParams.get("cursor");
    let from = 0;
    if (cursor) {
      try {
        from = Number(atob(cursor));
      } catch {
        from = Number.NaN;
      }
      if (!Number.isSafeInteger(from) || from < 0) return badRequest("The cursor is not valid.");
    }
    return vippsResponse(
      await vippsOf(c.env).report(m.msn, c.req.param("ledgerId"), report, date, from, size),
    );
  })
  .all("*", () => Response.json({ title: "Not Found", status: 404 }, { status: 404 }));
