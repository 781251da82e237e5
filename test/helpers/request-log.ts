/**
 * A `/v2` call through the gateway's own handler that waits for what it left to run after the
 * answer (the request log's write, `ctx.waitUntil`): `exports.default` would not let a test wait for
 * that. `bindings` stands in for the Worker's (e.g. with `REQUEST_LOG` set).
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import app from "../../src/index";

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** `path` below `/v2` with `key`, answered and logged. */
export async function v2(
  key: string,
  path: string,
  init: RequestInit = {},
  bindings: typeof env = env,
): Promise<Response> {
  return logged(
    `/v2${path}`,
    { ...init, headers: withAuth(init.headers, `Bearer ${key}`) },
    bindings,
  );
}

/** Any request to the gateway's handler with `bindings`, waiting for its after-answer work. */
export async function logged(
  path: string,
  init: RequestInit,
  bindings: typeof env,
): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://gateway.test${path}`, init), bindings, ctx);
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  // Read, so the after-answer work ran; handed back readable. A null-body status takes no body.
  return new Response(NULL_BODY_STATUSES.has(res.status) ? null : body, res);
}

function withAuth(headers: HeadersInit | undefined, authorization: string): Headers {
  const h = new Headers(headers);
  h.set("authorization", authorization);
  return h;
}
