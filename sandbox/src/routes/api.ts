/**
 * @module
 * `{root}/v2/*` of one environment: the gate every call passes (faults, subscription key, rate
 * limit, bearer token), then one dispatcher for every operation of the catalog: it resolves the
 * operation (paths match case-insensitively), checks the integration's privileges, reads and
 * validates the body with the shared schema, and hands the call to the client's data object.
 */
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { matchOperation, type Match, type Operation } from "../../../shared/v2/catalog";
import { clientOf, platformOf, type SandboxApp } from "../app";
import type { Call, Reply, Upload } from "../engine/call";
import { SHAPE_HEADER, UNPUBLISHED } from "../engine/free";
import type { Environment } from "../env";
import { readJson } from "../lib/body";
import { problemResponse, schemaProblem, type Result } from "../lib/problem";
import { delay, DroppedConnection, rejectionResponse } from "../lib/rejection";
import { bearerOf, sentAtOf, subscriptionKeyOf } from "./guards";
import { integrationRoutes } from "./integration";
import { onboardingApiRoutes } from "./onboarding-api";

/** Largest file an upload takes (VoucherDocumentation allows 30 MB). */
const MAX_UPLOAD_BYTES = 30 * 1024 * 1024;

/** The path below the environment's v2 root, in the caller's casing. */
function relativePath(url: string): string {
  return new URL(url).pathname.replace(/^(\/demo)?\/v2/i, "") || "/";
}

/** Admits the call or answers for the layer that refused it. */
function gate(environment: Environment): MiddlewareHandler<SandboxApp> {
  return async function gateCall(c, next) {
    const admission = await platformOf(c.env, environment).admit(environment, {
      // The Worker's clock when the call came in (nothing awaited before this): the rate limit
      // counts arrivals, not the moment the platform object gets to the call.
      arrivedAt: Date.now(),
      sentAt: sentAtOf(c.req.raw),
      subscriptionKey: subscriptionKeyOf(c.req.raw),
      bearer: bearerOf(c.req.raw),
      path: relativePath(c.req.url).toLowerCase(),
    });
    await delay(admission.latencyMs);
    if (!admission.ok) return rejectionResponse(admission.rejection);
    c.set("environment", environment);
    c.set("clientId", admission.clientId);
    c.set("integration", admission.integration);
    c.set("privileges", admission.privileges);
    await next();
    if (admission.loseAnswer) throw new DroppedConnection();
  };
}

/**
 * Reads the body an operation takes: JSON checked against its schema (unchecked where the shape is
 * unpublished), a JSON Patch, or one uploaded file (either of the last two for
 * `multipart-or-json`).
 */
async function bodyOf(
  c: Context<SandboxApp>,
  op: Operation,
): Promise<Result<{ body: unknown; upload: Upload | null }>> {
  if (op.body === "none") return { ok: true, value: { body: null, upload: null } };
  const multipart = (c.req.header("content-type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  if (op.body === "multipart" || (op.body === "multipart-or-json" && multipart))
    return uploadOf(c.req.raw);
  const raw = await readJson(c.req.raw, op.body === "json-patch" ? "json-patch" : "json");
  if (!raw.ok) return raw;
  const parsed = op.schema?.safeParse(raw.value);
  if (parsed && !parsed.success)
    return {
      ok: false,
      problem: schemaProblem(parsed.error, op.body === "json-patch" ? "patch" : ""),
    };
  return { ok: true, value: { body: parsed ? parsed.data : raw.value, upload: null } };
}

async function uploadOf(req: Request): Promise<Result<{ body: null; upload: Upload }>> {
  if (!(req.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return {
      ok: false,
      problem: {
        status: 415,
        title: "Unsupported Media Type",
        detail: "Send the file as multipart/form-data with a field named file.",
      },
    };
  }
  if (Number(req.headers.get("content-length") ?? "0") > MAX_UPLOAD_BYTES) {
    return {
      ok: false,
      problem: {
        status: 413,
        title: "Payload Too Large",
        detail: `Files are limited to ${MAX_UPLOAD_BYTES} bytes.`,
      },
    };
  }
  const form = await req.formData().catch(() => null);
  const file = form?.get("file");
  if (!file || typeof file === "string") {
    return {
      ok: false,
      problem: {
        status: 400,
        title: "One or more validation errors occurred.",
        detail: "The file field is required.",
        errors: { file: ["The file field is required."] },
      },
    };
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > MAX_UPLOAD_BYTES)
    return {
      ok: false,
      problem: {
        status: 413,
        title: "Payload Too Large",
        detail: `Files are limited to ${MAX_UPLOAD_BYTES} bytes.`,
      },
    };
  const fields: Record<string, string> = {};
  for (const [name, value] of form?.entries() ?? [])
    if (typeof value === "string") fields[name] = value;
  return {
    ok: true,
    value: {
      body: null,
      upload: { name: file.name, type: file.type || "application/octet-stream", bytes, fields },
    },
  };
}

function respond(r: Result<Reply>): Response {
  if (!r.ok) return problemResponse(r.problem);
  const { status, json, headers = {}, bytes } = r.value;
  if (bytes)
    return new Response(bytes.data, {
      status,
      headers: { ...headers, "content-type": bytes.type },
    });
  if (json === undefined) return new Response(null, { status, headers });
  return Response.json(json, { status, headers });
}

/**
 * Serves any operation of the catalog. Every answer of an operation whose shapes are unpublished,
 * refusals included, says so in `X-Sandbox-Shape`: its fields are the caller's own, not the API's.
 */
async function dispatch(c: Context<SandboxApp>): Promise<Response> {
  const match = matchOperation(c.req.method, relativePath(c.req.url));
  const res = await serve(c, match);
  if (match.kind === "operation" && match.op.shape === "unpublished")
    res.headers.set(SHAPE_HEADER, UNPUBLISHED[SHAPE_HEADER]);
  return res;
}

async function serve(c: Context<SandboxApp>, match: Match): Promise<Response> {
  if (match.kind === "not-found")
    return problemResponse({
      status: 404,
      title: "Not Found",
      detail: `No resource at ${new URL(c.req.url).pathname}.`,
    });
  if (match.kind === "method-not-allowed") {
    const res = problemResponse({
      status: 405,
      title: "Method Not Allowed",
      detail: `${c.req.method} is not allowed here; use ${match.allow.join(", ")}.`,
    });
    res.headers.set("allow", match.allow.join(", "));
    return res;
  }
  const { op, params } = match;
  const held = c.get("privileges");
  if (op.privileges.length > 0 && !op.privileges.some((p) => held.includes(p))) {
    // The API documents 403 without a body; naming the privilege is what a developer needs to fix
    // it.
    return problemResponse({
      status: 403,
      title: "Forbidden",
      detail: `The integration needs one of these privileges: ${op.privileges.join(", ")}.`,
    });
  }
  const body = await bodyOf(c, op);
  if (!body.ok) return problemResponse(body.problem);
  const url = new URL(c.req.url);
  const call: Call = {
    key: op.key,
    params,
    query: [...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]),
    url: c.req.url,
    ...body.value,
    environment: c.get("environment"),
    clientId: c.get("clientId"),
    integration: c.get("integration"),
    privileges: held,
  };
  // RPC typing cannot see through `unknown` inside replies; the shape is the method's own.
  return respond(
    (await clientOf(c.env, call.environment, call.clientId).handle(call)) as Result<Reply>,
  );
}

/** The v2 API of one environment. */
export function apiRoutes(environment: Environment) {
  const app = new Hono<SandboxApp>();
  // Before the gate: Onboarding has an empty security requirement (no token), and its own
  // front-layer check.
  app.route("/", onboardingApiRoutes(environment));
  app.use("*", gate(environment));
  app.route("/", integrationRoutes);
  app.all("*", dispatch);
  return app;
}
