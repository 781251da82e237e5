// Shared by the bench's parts (bench/run.mjs, load.mjs, margin.mjs, orders*.mjs, reference.mjs):
// addresses, small HTTP helpers, tenants and direct tokens, the sandbox's counters, percentiles and
// the header line every bench run prints.
import { execSync } from "node:child_process";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import os from "node:os";
import { localAddresses } from "../scripts/wrangler-env.mjs";

// The gateway and the sandbox where `npm start` puts them: LEDGERGATE_GATEWAY_PORT and
// LEDGERGATE_SANDBOX_PORT, read as scripts/dev.mjs reads them (run.mjs starts the Workers with it).
export const { gateway: GW, sandbox: SB } = localAddresses();
/**
 * The bare forwarder (bench/forwarder/), started by run.mjs for the latency part only:
 * LEDGERGATE_FORWARDER_PORT (default 8789), its inspector on LEDGERGATE_FORWARDER_INSPECTOR_PORT
 * (default 9231), so that two benches on one machine need not share them.
 */
export const FW_PORT = process.env.LEDGERGATE_FORWARDER_PORT?.trim() || "8789";
export const FW_INSPECTOR_PORT = process.env.LEDGERGATE_FORWARDER_INSPECTOR_PORT?.trim() || "9231";
export const FW = `http://127.0.0.1:${FW_PORT}`;
export const ADMIN = { authorization: "Bearer local-admin-token" };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether `url` answers at all (any status). */
export async function answers(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Waits until `url` answers 2xx (two minutes at most). */
export async function up(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await sleep(500);
  }
  throw new Error(`${url} did not come up`);
}

/** A JSON call; the parsed answer (null for 204). */
export const json = async (method, url, body, headers = {}) => {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body && JSON.stringify(body),
  });
  return res.status === 204 ? null : res.json();
};

/** The sandbox's traffic counters (`requests` counts token requests and throttled calls too). */
export const stats = () => json("GET", `${SB}/_sandbox/stats`);

/** The sandbox's count of calls every 250 ms until `stop()`, which answers the samples. */
export function sampleRequests() {
  const samples = [];
  let sampling = true;
  const sampler = (async () => {
    for (; sampling; await sleep(250))
      samples.push({ t: Date.now(), requests: (await stats()).requests });
  })();
  return {
    stop: async () => {
      sampling = false;
      await sampler;
      return samples;
    },
  };
}

/** Sets the sandbox's demo environment to the real API's: 10 req/s, no added latency, no faults. */
export async function realApiSettings() {
  await json("PUT", `${SB}/_sandbox/settings`, {
    environment: "demo",
    rateLimitPerSecond: 10,
    latencyMs: 0,
    faults: [],
    tokenLifetimeSeconds: 1200,
  });
  return (await json("GET", `${SB}/_sandbox/settings`)).demo.rateLimitPerSecond;
}

/** The `p`th percentile of `xs` (nearest rank). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * Waits until the sandbox has seen no request for `quietMs` (at most `maxMs`); false if it never
 * went quiet.
 */
export async function quiet(quietMs = 2000, maxMs = 60_000) {
  const t0 = Date.now();
  let last = (await stats()).requests;
  let since = Date.now();
  while (Date.now() - t0 < maxMs) {
    await sleep(250);
    const now = (await stats()).requests;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return true;
  }
  return false;
}

/**
 * The line every run starts with: date, machine, node, commit (and whether the tree had uncommitted
 * changes).
 */
/**
 * Keeps everything the run prints from here on, and answers `save`, which writes it to
 * bench/results/<UTC time>-<mode>.md (the header line names the date, machine and commit), so every
 * figure in docs/benchmarks.md can point to the run that printed it. Answers the file's path.
 */
export function recording(mode) {
  const lines = [];
  const print = console.log;
  console.log = (...args) => {
    lines.push(args.join(" "));
    print(...args);
  };
  const started = new Date().toISOString().slice(0, 16).replace(":", "");
  return () => {
    const dir = join(import.meta.dirname, "results");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${started}Z-${mode}.md`);
    writeFileSync(file, `# npm run bench -- ${mode}\n\n${lines.join("\n")}\n`);
    print(`\nSaved to ${file.slice(file.indexOf("bench/results"))}`);
    return file;
  };
}

export function header() {
  let commit = "unknown";
  try {
    commit = execSync("git rev-parse --short HEAD", { stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
    if (
      execSync("git status --porcelain --untracked-files=no", {
        stdio: ["ignore", "pipe", "ignore"],
      })
        .toString()
        .trim()
    )
      commit += " + uncommitted changes";
  } catch {
    // not a git checkout
  }
  return `ledgergate bench — ${new Date().toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB — node ${process.version} — commit ${commit}`;
}

// Clients of both Workers, shared by every part.

/**
 * A new sandbox client registered as a tenant named `bench-[tag-]…` (retried: registration asks for
 * a token, which a 429, the key's limit spent by direct calls, answers 503).
 */
export async function newTenant(name = "Bench AS", tag = "") {
  const client = await json("POST", `${SB}/_sandbox/clients`, { environment: "demo", name });
  const slug = `bench-${tag ? `${tag}-` : ""}${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  let t = null;
  for (let attempt = 0; attempt < 5 && !t?.gatewayKey; attempt++) {
    if (attempt > 0) await sleep(1500);
    t = await json(
      "POST",
      `${GW}/admin/tenants`,
      { client: slug, environment: "demo", clientKey: client.clientKey },
      ADMIN,
    );
  }
  if (!t?.gatewayKey) throw new Error(`registering ${slug} failed: ${JSON.stringify(t)}`);
  return { ...client, slug, gatewayKey: t.gatewayKey };
}

/** The sandbox's root of `environment`, as the real API's: `/Demo` for demo, none for production. */
const rootOf = (environment) => (environment === "demo" ? "/Demo" : "");

/**
 * A token straight from the sandbox's token endpoint of `environment` (default demo), as a client
 * with no gateway gets one (after a 429, again); null when refused. `keys` are that environment's.
 */
export async function directToken(keys, clientKey, environment = "demo") {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await fetch(`${SB}${rootOf(environment)}/OAuth/Token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${keys.applicationKey}:${clientKey}`)}`,
        "ocp-apim-subscription-key": keys.subscriptionKey,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    });
    if (res.ok) return (await res.json()).access_token;
    await res.arrayBuffer();
    if (res.status !== 429) return null;
    await sleep(1000 * (Number(res.headers.get("retry-after")) || 1));
  }
  return null;
}

/**
 * The bench's call, straight to the sandbox (no limiter at all), in `environment` (default demo,
 * `keys` that environment's).
 */
export const direct = (keys, token, environment = "demo") =>
  fetch(`${SB}${rootOf(environment)}/v2/ClientIntegrationInformation`, {
    headers: {
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": keys.subscriptionKey,
    },
  });
/**
 * The same call through the bare forwarder: the sandbox's own headers, the gateway's path. The
 * forwarder sends it to the sandbox's production root (bench/forwarder/wrangler.toml), so `keys` and
 * `token` are production's.
 */
export const viaForwarder = (keys, token) =>
  fetch(`${FW}/v2/ClientIntegrationInformation`, {
    headers: {
      authorization: `Bearer ${token}`,
      "ocp-apim-subscription-key": keys.subscriptionKey,
    },
  });
/** The same call through the gateway. */
export const viaGateway = (gatewayKey) =>
  fetch(`${GW}/v2/ClientIntegrationInformation`, {
    headers: { authorization: `Bearer ${gatewayKey}` },
  });

/**
 * Requests the sandbox answered other than with a 429 or a refusal, over both environments: what
 * its limit let through.
 */
export const served = (s) =>
  Object.values(s.environments).reduce(
    (n, e) =>
      n + e.requests - e.throttled - e.rejected.subscription - e.rejected.token - e.rejected.faults,
    0,
  );

/**
 * Sends `rate` calls a second for `seconds` (open loop: on a fixed schedule, whatever the answers),
 * `send(i)` making call `i`. Answers each call's send and answer times (ms from the start) and
 * status (0: no answer), with the sandbox's `served` count sampled every `sampleMs` meanwhile.
 */
export async function openLoop(rate, seconds, send, sampleMs = 250) {
  const t0 = performance.now();
  const at = () => performance.now() - t0;
  const samples = [];
  let sending = true;
  const sample = async () => {
    const asked = at();
    const s = await stats().catch(() => null);
    if (s) samples.push({ t: (asked + at()) / 2, served: served(s), throttled: s.throttled });
  };
  const sampler = (async () => {
    while (sending) {
      await sample();
      await sleep(sampleMs);
    }
  })();
  const calls = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = (i * 1000) / rate - at();
    if (wait > 1) await sleep(wait);
    const sentAt = at();
    calls.push(
      (async () => {
        try {
          const r = await send(i);
          await r.arrayBuffer();
          return { i, sentAt, doneAt: at(), status: r.status };
        } catch {
          return { i, sentAt, doneAt: at(), status: 0 }; // the connection failed or dropped
        }
      })(),
    );
  }
  const answered = await Promise.all(calls);
  sending = false;
  await sampler;
  await sample(); // the last word: every call has been answered
  return { calls: answered, samples };
}

/** Jain's fairness index of `xs`: 1 when all are equal, 1/n when one takes everything. */
export const jain = (xs) =>
  xs.reduce((a, b) => a + b, 0) ** 2 / (xs.length * xs.reduce((a, b) => a + b * b, 0));

/**
 * Requests served per second between `fromMs` and `toMs` of an `openLoop`, interpolated between its
 * samples.
 */
export function servedRate(samples, fromMs, toMs) {
  const at = (t) => {
    const j = samples.findIndex((s) => s.t >= t);
    if (j === -1) return samples.at(-1).served;
    if (j === 0) return samples[0].served;
    const [a, b] = [samples[j - 1], samples[j]];
    return a.served + ((b.served - a.served) * (t - a.t)) / (b.t - a.t);
  };
  return ((at(toMs) - at(fromMs)) * 1000) / (toMs - fromMs);
}

/**
 * The newest modification time (ms) of the Workers' sources. `wrangler dev` reloads a Worker when
 * they change, dropping its connections and its Durable Objects' memory, so a run that sees this
 * move measured across a reload (someone edited the tree meanwhile) and says so.
 */
export function newestSource(dirs = ["src", "shared", "sandbox/src"]) {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  }
  return newest;
}

/**
 * One MCP `tools/call` of tool `name` with `args` on `/mcp`, under gateway key `key`, as a
 * stateless POST (what an assistant's SDK client sends once connected): the HTTP status and the
 * tool's result (null when the answer holds none). Throws when no answer comes.
 */
export async function mcpTool(key, name, args, id = 1) {
  const res = await fetch(`${GW}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  const text = await res.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? (text.startsWith("{") ? text : null);
  return { status: res.status, result: data ? (JSON.parse(data).result ?? null) : null };
}
