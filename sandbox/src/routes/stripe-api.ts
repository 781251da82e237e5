/**
 * @module
 * The stand-in of Stripe's API that ledgergate reads payouts with: `GET /v1/payouts/{id}` and
 * `GET /v1/balance_transactions` (`payout`, `limit` 1–100, `starting_after`, `expand[]=data.source`),
 * with the account's restricted key as `Authorization: Bearer` (or Basic, key as user name, as
 * Stripe takes it too). Stripe's error bodies and statuses: 401 for no key or a wrong one (the key
 * masked in the message, as Stripe masks it), 400 for a bad parameter or a manual payout's filter,
 * 404 for an unknown payout or path. Paths are matched as sent (Stripe's ids are case-sensitive).
 */
import { Hono, type Context } from "hono";
import type { SandboxApp } from "../app";
import type { StripeError, StripeResult } from "../durable/stripe";

/** The stand-in's one object. */
export const stripeOf = (env: SandboxEnv) => env.STRIPE.get(env.STRIPE.idFromName("stripe"));

/** Stripe's error answer. */
export const stripeError = (e: StripeError) =>
  Response.json({ error: e.error }, { status: e.status });

/** The key of a request: `Bearer <key>`, or Basic with the key as user name. */
function keyOf(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme = "", value = ""] = header.split(" ", 2);
  if (scheme.toLowerCase() === "bearer") return value.trim() || null;
  if (scheme.toLowerCase() === "basic") {
    try {
      return atob(value).split(":", 1)[0] || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** `rk_test_…` with all but its last four masked, as Stripe writes a refused key. */
const masked = (key: string) => {
  const prefix = /^[a-z]{2}_(test|live)_/.exec(key)?.[0] ?? "";
  return `${prefix}${"*".repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
};

/** The account a request's key opens, or Stripe's 401; counts the request under `route`. */
async function account(c: Context<SandboxApp>, route: string) {
  const key = keyOf(c.req.header("authorization"));
  const id = await stripeOf(c.env).authenticate(key, route, c.req.header("stripe-version") ?? null);
  if (id) return { ok: true as const, id };
  const message = key
    ? `Invalid API Key provided: ${masked(key)}`
    : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').";
  return {
    ok: false as const,
    res: stripeError({ status: 401, error: { type: "invalid_request_error", message } }),
  };
}

/** The stand-in's answer as a response (`status` for a success). */
export const stripeResponse = (result: StripeResult, status = 200) =>
  result.ok
    ? new Response(result.json, { status, headers: { "content-type": "application/json" } })
    : stripeError(result);

/** Answers `result` as Stripe would, echoing the version the request pinned. */
function answer(c: Context<SandboxApp>, result: StripeResult) {
  const version = c.req.header("stripe-version");
  const res = stripeResponse(result);
  if (version) res.headers.set("stripe-version", version);
  return res;
}

export const stripeApiRoutes = new Hono<SandboxApp>()
  .get("/payouts/:id", async (c) => {
    const a = await account(c, "/v1/payouts/{id}");
    if (!a.ok) return a.res;
    return answer(c, await stripeOf(c.env).payout(a.id, c.req.param("id")));
  })
  .get("/balance_transactions", async (c) => {
    const a = await account(c, "/v1/balance_transactions");
    if (!a.ok) return a.res;
    const url = new URL(c.req.url);
    const limitText = url.searchParams.get("limit") ?? "10";
    const limit = Number(limitText);
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > 100)
      return stripeError({
        status: 400,
        error: {
          type: "invalid_request_error",
          message: `Invalid limit: must be an integer between 1 and 100 (got ${limitText.slice(0, 20)}).`,
          param: "limit",
        },
      });
    const expand = url.searchParams.getAll("expand[]");
    return answer(
      c,
      await stripeOf(c.env).listTransactions(a.id, {
        payout: url.searchParams.get("payout"),
        limit,
        startingAfter: url.searchParams.get("starting_after"),
        expandSource: expand.includes("data.source"),
      }),
    );
  })
  .all("*", (c) =>
    stripeError({
      status: 404,
      error: {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${c.req.method}: ${new URL(c.req.url).pathname}).`,
      },
    }),
  );
