/**
 * @module
 * `/_sandbox/*`, the control API for local use: keys, clients, settings and faults, counters,
 * the rate limit's clock, reset. Served only when `SANDBOX_CONTROL` is "true"; a deployed sandbox
 * leaves it off.
 */
import { Hono } from "hono";
import { z } from "zod";
import { clientOf, platformOf, type SandboxApp } from "../app";
import { ENVIRONMENTS, keysOf, otherKeysOf, type Environment } from "../env";
import { controlBody } from "../lib/body";
import { problemResponse } from "../lib/problem";
import { PRIVILEGES, SUBSCRIPTIONS } from "../lib/privileges";
import { SettingsPatch } from "../lib/settings";
import { controlEnabled } from "./control-gate";
import { stripeOf } from "./stripe-api";

const EnvironmentName = z.enum(ENVIRONMENTS);
const NewClientBody = z.strictObject({
  environment: EnvironmentName,
  name: z.string().min(1).max(200).optional(),
  organizationNumber: z
    .string()
    .regex(/^[0-9]{9}$/, "must be 9 digits")
    .optional(),
  privileges: z.array(z.string().refine((p) => PRIVILEGES.has(p), "unknown privilege")).optional(),
  subscriptions: z.array(z.enum(SUBSCRIPTIONS)).optional(),
});

/** `PUT /_sandbox/clients/{environment}/{clientId}/privileges`: the lists that replace the old. */
const PrivilegesBody = NewClientBody.pick({ privileges: true, subscriptions: true });

/** `POST /_sandbox/clients/{environment}/{clientId}/backdate`: which stamps, and to when. */
const BackdateBody = z.strictObject({
  kind: z.string().regex(/^[A-Za-z]{1,64}$/),
  id: z.string().min(1).max(64),
  fields: z
    .array(z.string().regex(/DateTimeOffset$/, "must name a …DateTimeOffset field"))
    .min(1)
    .max(10),
  to: z.iso.datetime({ offset: true }),
});

/**
 * How far `POST /_sandbox/clock/skip` moves the rate limit's clock, ms: at most a year, since the
 * gateway's tests skip its retention periods (30 days) and nothing it keeps lives longer.
 */
const SkipBody = z.strictObject({
  ms: z
    .int()
    .min(1)
    .max(366 * 86_400_000),
});

/** The path's `{environment}`, or the 404 that answers an unknown one. */
function environmentOf(name: string | undefined): [Environment, null] | [null, Response] {
  const parsed = EnvironmentName.safeParse(name);
  return parsed.success
    ? [parsed.data, null]
    : [null, problemResponse({ status: 404, title: "Not Found", detail: "Unknown environment." })];
}

function perEnvironment<T>(
  run: (environment: Environment) => Promise<T>,
): Promise<Record<Environment, T>> {
  return Promise.all(ENVIRONMENTS.map(async (e) => [e, await run(e)] as const)).then(
    (pairs) => Object.fromEntries(pairs) as Record<Environment, T>,
  );
}

export const controlRoutes = new Hono<SandboxApp>()
  .use("*", controlEnabled)
  .get("/keys", (c) =>
    c.json({
      demo: { ...keysOf(c.env, "demo"), other: otherKeysOf(c.env, "demo") },
      production: { ...keysOf(c.env, "production"), other: otherKeysOf(c.env, "production") },
    }),
  )
  .post("/clients", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, NewClientBody);
    if (bad) return bad;
    const name = input.name ?? `Sandbox client ${new Date().toISOString()}`;
    const created = await platformOf(c.env, input.environment).createClient(input.environment, {
      ...input,
      name,
    });
    return c.json({ ...created, environment: input.environment }, 201);
  })
  .post("/clients/:environment/:clientId/reactivate", async (c) => {
    const [environment, unknown] = environmentOf(c.req.param("environment"));
    if (unknown) return unknown;
    const clientId = c.req.param("clientId");
    const result = await platformOf(c.env, environment).addIntegration(clientId);
    if (result.ok)
      return c.json({ clientId, clientKey: result.clientKey, environment: environment }, 201);
    return result.reason === "not-found"
      ? problemResponse({
          status: 404,
          title: "Not Found",
          detail: `No client ${clientId} in ${environment}.`,
        })
      : problemResponse({
          status: 409,
          title: "Conflict",
          detail: "The integration is already active for this client; remove it first.",
        });
  })
  .put("/clients/:environment/:clientId/privileges", async (c) => {
    const [environment, unknown] = environmentOf(c.req.param("environment"));
    if (unknown) return unknown;
    const [input, bad] = await controlBody(c.req.raw, PrivilegesBody);
    if (bad) return bad;
    const clientId = c.req.param("clientId");
    const platform = platformOf(c.env, environment);
    if (!(await platform.setPrivileges(clientId, input)))
      return problemResponse({
        status: 404,
        title: "Not Found",
        detail: `No client ${clientId} in ${environment}.`,
      });
    return c.json(await platform.integrationInformation(environment, clientId));
  })
  .post("/clients/:environment/:clientId/integrations", async (c) => {
    const [environment, unknown] = environmentOf(c.req.param("environment"));
    if (unknown) return unknown;
    const [input, bad] = await controlBody(
      c.req.raw,
      z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) }),
    );
    if (bad) return bad;
    const clientId = c.req.param("clientId");
    const result = await platformOf(c.env, environment).addIntegration(clientId, input.name);
    if (result.ok)
      return c.json(
        {
          clientId,
          integration: input.name,
          clientKey: result.clientKey,
          environment: environment,
        },
        201,
      );
    return result.reason === "not-found"
      ? problemResponse({
          status: 404,
          title: "Not Found",
          detail: `No client ${clientId} in ${environment}.`,
        })
      : problemResponse({
          status: 409,
          title: "Conflict",
          detail: `The integration ${input.name} is already active for this client.`,
        });
  })
  .post("/clients/:environment/:clientId/backdate", async (c) => {
    const [environment, unknown] = environmentOf(c.req.param("environment"));
    if (unknown) return unknown;
    const [input, bad] = await controlBody(c.req.raw, BackdateBody);
    if (bad) return bad;
    const to = new Date(input.to).toISOString();
    const stamps = await clientOf(c.env, environment, c.req.param("clientId")).backdate({
      ...input,
      to,
    });
    return stamps
      ? c.json(stamps)
      : problemResponse({
          status: 404,
          title: "Not Found",
          detail: `No ${input.kind} ${input.id} with ${input.fields.join(", ")} in that client.`,
        });
  })
  .post("/tokens/revoke", async (c) => {
    const [input, bad] = await controlBody(
      c.req.raw,
      z.strictObject({ environment: EnvironmentName.optional(), clientId: z.string().optional() }),
    );
    if (bad) return bad;
    const targets = input.environment ? [input.environment] : ENVIRONMENTS;
    const counts = await Promise.all(
      targets.map((e) => platformOf(c.env, e).revokeTokens(input.clientId)),
    );
    return c.json({ revoked: counts.reduce((a, b) => a + b, 0) });
  })
  .get("/settings", async (c) =>
    c.json(await perEnvironment((e) => platformOf(c.env, e).settings())),
  )
  .put("/settings", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, SettingsPatch);
    if (bad) return bad;
    const { environment, ...patch } = input;
    const targets = environment ? [environment] : ENVIRONMENTS;
    await Promise.all(targets.map((e) => platformOf(c.env, e).updateSettings(patch)));
    return c.json(await perEnvironment((e) => platformOf(c.env, e).settings()));
  })
  .get("/stats", async (c) => {
    const environments = await perEnvironment((e) => platformOf(c.env, e).stats());
    const both = Object.values(environments);
    const sum = (pick: (s: (typeof both)[number]) => number) =>
      both.reduce((n, s) => n + pick(s), 0);
    return c.json({
      requests: sum((s) => s.requests),
      throttled: sum((s) => s.throttled),
      throttledInjected: sum((s) => s.throttledInjected),
      tokensIssued: sum((s) => s.tokensIssued),
      tokenRequests: {
        total: sum((s) => s.tokenRequests.total),
        byClient: Object.assign({}, ...both.map((s) => s.tokenRequests.byClient)),
      },
      environments,
    });
  })
  .post("/clock/skip", async (c) => {
    const [input, bad] = await controlBody(c.req.raw, SkipBody);
    if (bad) return bad;
    await perEnvironment((e) => platformOf(c.env, e).skipRateWindow(input.ms));
    return c.body(null, 204);
  })
  .post("/reset", async (c) => {
    await perEnvironment(async (e) => {
      const clientIds = await platformOf(c.env, e).reset();
      await Promise.all(clientIds.map((id) => clientOf(c.env, e, id).wipe()));
    });
    await stripeOf(c.env).reset();
    return c.body(null, 204);
  });
