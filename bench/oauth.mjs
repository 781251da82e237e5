// `npm run bench -- oauth` (part 13): what an OAuth grant costs an MCP tool call, against the same
// call under a gateway key (the baseline). A key is checked from the isolate's access cache on a
// warm call; a grant is checked on every request (its token validated in OAUTH_KV, its row asked in
// the tenant's object), and every API call under it asks the object again for the token. Each round
// makes four tool calls in turn (2025-era POSTs to /mcp): `search_operations` (no API call: the
// door's cost alone) and `read` of one record (one API call), each under the key and under the
// grant; warm-up rounds are dropped. Every figure comes from this one run.
import { createHash, randomBytes } from "node:crypto";
import { URLSearchParams } from "node:url";
import { GW, json, newTenant, pct, sleep } from "./lib.mjs";

/** Rounds dropped at the start (a new tenant's cold object, the isolate's first calls). */
const WARM_UP = 20;
/** Rounds kept. */
const KEPT = 150;
/** Between rounds, ms: two API calls a round stay well under the sandbox's 10 req/s. */
const PAUSE_MS = 300;
const CALLBACK = "http://127.0.0.1:9/callback";

/** A grant for the tenant of `gatewayKey`, approved as the page would be: its access token. */
async function grant(gatewayKey) {
  const client = await json("POST", `${GW}/oauth/register`, {
    client_name: "Bench Assistant",
    redirect_uris: [CALLBACK],
    token_endpoint_auth_method: "none",
  });
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: CALLBACK,
    state: "bench",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: `${GW}/mcp`,
    scope: "read",
  });
  const page = await fetch(`${GW}/oauth/authorize?${query}`, { redirect: "manual" });
  const html = await page.text();
  const field = (name) => fieldOf(html, name);
  const cookie = page.headers
    .getSetCookie()
    .map((l) => l.split(";")[0])
    .join("; ");
  const approved = await fetch(`${GW}/oauth/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({
      consent: field("consent"),
      request: field("request"),
      decision: "approve",
      gatewayKey,
      scope: "read",
      lifetime: "1d",
    }),
    redirect: "manual",
  });
  const code = new URL(approved.headers.get("location") ?? "").searchParams.get("code");
  const tokens = await fetch(`${GW}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code ?? "",
      code_verifier: verifier,
      client_id: client.client_id,
      redirect_uri: CALLBACK,
      resource: `${GW}/mcp`,
    }),
  }).then((r) => r.json());
  if (!tokens.access_token) throw new Error(`no token: ${JSON.stringify(tokens)}`);
  return tokens.access_token;
}

/** A hidden field's value in a page (HTML-unescaped). */
function fieldOf(html, name) {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return (m?.[1] ?? "").replaceAll("&amp;", "&").replaceAll("&quot;", '"');
}

/** One timed tool call with `bearer`; `ok` when it was answered with a result, not an error. */
async function call(bearer, name, args) {
  const t0 = performance.now();
  const res = await fetch(`${GW}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${bearer}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  const text = await res.text();
  return {
    ms: performance.now() - t0,
    ok: res.status === 200 && !text.includes('"isError":true') && !text.includes('"error"'),
  };
}

/** Runs the rounds on the shared Workers; answers a function that prints the table. */
export async function oauthBench() {
  const t = await newTenant("Bench AS", "oauth");
  const token = await grant(t.gatewayKey);
  const kinds = [
    ["search_operations", { query: "customers" }, "search_operations (no API call)"],
    ["read", { path: "/ClientIntegrationInformation" }, "read (one API call)"],
  ];
  const got = kinds.map(() => ({ key: [], grant: [] }));
  let bad = 0;
  for (let i = 0; i < WARM_UP + KEPT; i++) {
    for (const [k, [name, args]] of kinds.entries()) {
      const a = await call(t.gatewayKey, name, args);
      const b = await call(token, name, args);
      if (!a.ok || !b.ok) bad++;
      if (i >= WARM_UP) {
        got[k].key.push(a.ms);
        got[k].grant.push(b.ms);
      }
    }
    await sleep(PAUSE_MS);
  }
  return () => {
    const f = (x) => x.toFixed(1);
    console.log(
      `\n13. An MCP tool call under an OAuth grant against a gateway key, ${KEPT} rounds (ms; calls not answered with a result: ${bad})\n`,
    );
    console.log(
      "| tool call | key median (baseline) | key p99 | grant median | grant p99 | grant ÷ key, median | p99 |\n|---|---|---|---|---|---|---|",
    );
    for (const [k, [, , label]] of kinds.entries()) {
      const { key, grant: g } = got[k];
      console.log(
        `| ${label} | ${f(pct(key, 50))} | ${f(pct(key, 99))} | ${f(pct(g, 50))} | ${f(pct(g, 99))} | ${(pct(g, 50) / pct(key, 50)).toFixed(2)}× | ${(pct(g, 99) / pct(key, 99)).toFixed(2)}× |`,
      );
    }
  };
}
