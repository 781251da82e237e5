/**
 * An assistant's OAuth client as the tests play it, against the gateway Worker: PKCE, dynamic
 * registration, the approval page read and posted as a browser would (its consent cookie and the
 * form's fields), the code exchanged and refreshed. Every JSON answer goes through `gw()`, so it is
 * checked against `/openapi.json` too.
 */
import { expect } from "vitest";
import { gw, json } from "./gateway";

export const ORIGIN = "https://gateway.test";
/** A loopback redirect URI, as Claude Code and the Inspector use. */
export const REDIRECT = "http://127.0.0.1:33418/callback";

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: b64url(new Uint8Array(digest)) };
}

/**
 * Registers a public client (RFC 7591); answers the registration's response. `headers` may carry a
 * `cf-connecting-ip` (without one, only the gateway's pace applies, not the address's).
 */
export async function register(
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await gw(
    "/oauth/register",
    json(
      {
        client_name: "Test Assistant",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        ...fields,
      },
      "POST",
      headers,
    ),
  );
  return { res, body: (await res.clone().json()) as Record<string, unknown> };
}

/** A registered client's id (fails unless registration succeeds). */
export async function clientId(fields: Record<string, unknown> = {}): Promise<string> {
  const { res, body } = await register(fields);
  expect(res.status, JSON.stringify(body)).toBe(201);
  return String(body.client_id);
}

/** What an authorization request names. */
export interface AuthAsk {
  clientId: string;
  challenge: string;
  endpoint?: string;
  scope?: string;
  redirectUri?: string;
  state?: string;
}

/** The query of an authorization request. */
export function authorizeQuery(a: AuthAsk): string {
  return new URLSearchParams({
    response_type: "code",
    client_id: a.clientId,
    redirect_uri: a.redirectUri ?? REDIRECT,
    state: a.state ?? "st-1",
    code_challenge: a.challenge,
    code_challenge_method: "S256",
    resource: `${ORIGIN}${a.endpoint ?? "/mcp"}`,
    scope: a.scope ?? "read draft write",
  }).toString();
}

const unescape = (s: string) =>
  s
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** A form field's value in a page. */
export function field(page: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  expect(m, `a field ${name}`).not.toBeNull();
  return unescape(m?.[1] ?? "");
}

/** An approval page as the browser got it: its HTML, its consent cookie, its form's fields. */
export interface ApprovalPage {
  res: Response;
  html: string;
  cookie: string;
  consent: string;
  request: string;
}

/** Reads an approval page (`GET /oauth/authorize?…`, or the answer of a refused form). */
export async function readPage(res: Response): Promise<ApprovalPage> {
  const html = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((c) => c.startsWith("__Host-oauth-consent"))
    .join("; ");
  return { res, html, cookie, consent: field(html, "consent"), request: field(html, "request") };
}

/** Opens the approval page of `a`. */
export async function openApproval(a: AuthAsk): Promise<ApprovalPage> {
  const res = await gw(`/oauth/authorize?${authorizeQuery(a)}`, { redirect: "manual" });
  expect(res.status, "the approval page").toBe(200);
  return readPage(res);
}

/** Posts the approval form of `page` with `fields` (a decision, a key, a scope, a lifetime). */
export function postApproval(
  page: ApprovalPage,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return gw("/oauth/authorize", {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: page.cookie,
      ...headers,
    },
    body: new URLSearchParams({
      consent: page.consent,
      request: page.request,
      ...fields,
    }).toString(),
    redirect: "manual",
  });
}

/** The code (and state, iss) of the redirect an approval answered. */
export function codeOf(res: Response): { code: string; state: string | null; iss: string | null } {
  expect(res.status, "a redirect to the client").toBe(302);
  const to = new URL(res.headers.get("location") ?? "");
  expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
  const code = to.searchParams.get("code");
  expect(code, `a code in ${to.href}`).not.toBeNull();
  return { code: code ?? "", state: to.searchParams.get("state"), iss: to.searchParams.get("iss") };
}

/** A token answer. */
export interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope: string;
  token_type: string;
  resource?: string;
}

/** A token endpoint request (form) and its answer. */
export async function tokenRequest(
  fields: Record<string, string>,
): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await gw("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.clone().text();
  return { res, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Exchanges a code; fails unless it answers tokens. */
export async function exchange(a: {
  code: string;
  verifier: string;
  clientId: string;
  endpoint?: string;
}): Promise<Tokens> {
  const { res, body } = await tokenRequest({
    grant_type: "authorization_code",
    code: a.code,
    code_verifier: a.verifier,
    client_id: a.clientId,
    redirect_uri: REDIRECT,
    resource: `${ORIGIN}${a.endpoint ?? "/mcp"}`,
  });
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as unknown as Tokens;
}

let shared: Promise<string> | null = null;
/**
 * One registered client for the whole test file (registration is paced, 200 in 10 minutes for the
 * gateway, and a client may hold any number of grants). Approving a grant marks it used, so the
 * directory does not delete it after the hours an unapproved registration lives.
 */
export function sharedClient(): Promise<string> {
  return (shared ??= clientId());
}

/**
 * A grant made end to end with a gateway key: (the file's registered client), page, approval,
 * tokens.
 */
export async function connect(
  gatewayKey: string,
  {
    endpoint = "/mcp",
    scope = "write",
    lifetime = "30d",
  }: { endpoint?: string; scope?: string; lifetime?: string } = {},
) {
  const id = await sharedClient();
  const { verifier, challenge } = await pkce();
  const page = await openApproval({ clientId: id, challenge, endpoint });
  const approved = await postApproval(page, { decision: "approve", gatewayKey, scope, lifetime });
  const { code } = codeOf(approved);
  const tokens = await exchange({ code, verifier, clientId: id, endpoint });
  return { clientId: id, tokens };
}
