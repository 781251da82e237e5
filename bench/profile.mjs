#!/usr/bin/env node
// Where a warm GET /v2 call's CPU time goes in the gateway (issue 26): a CPU profile of the
// gateway's isolate, taken over the DevTools protocol on its inspector port while warm calls run,
// printed as shares of the busy samples per function and per source module (the bundle's `// path`
// comments map its lines back to src/, shared/ and the libraries). Run `npm start` first (with the
// same LEDGERGATE_* ports); then `node bench/profile.mjs [seconds, default 60] [calls a second,
// default 8]`. The raw profile is saved for DevTools too. The gateway's Durable Objects run in the
// same isolate locally, so their work (the governor's permits, the request log's writes) is in it.
// Shares are meaningful on a loaded machine, absolute times are not: the isolate is sampled only
// while it runs, and a descheduled thread stretches every sample alike. Not a test: it asserts
// nothing.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { root } from "../scripts/wrangler-env.mjs";
import { header, newTenant, sleep, viaGateway } from "./lib.mjs";

const seconds = Number(process.argv[2] ?? 60);
const rate = Number(process.argv[3] ?? 8);
const inspector = process.env.LEDGERGATE_GATEWAY_INSPECTOR_PORT?.trim() || "9229";

const targets = await (await fetch(`http://127.0.0.1:${inspector}/json`)).json();
// The inspector proxy refuses a connection without an Origin it knows.
const ws = new globalThis.WebSocket(targets[0].webSocketDebuggerUrl, {
  headers: { origin: "http://localhost" },
});
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = reject;
});
const pending = new Map();
let lastId = 0;
ws.onmessage = (event) => {
  const m = JSON.parse(event.data);
  pending.get(m.id)?.(m);
  pending.delete(m.id);
};
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++lastId;
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });

const t = await newTenant("Profile AS", "profile");
// Warm: the key's copy in the isolate's cache, the token, the governor.
for (let i = 0; i < 30; i++) {
  await (await viaGateway(t.gatewayKey)).arrayBuffer();
  await sleep(120);
}
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 50 });
await send("Profiler.start");
const t0 = Date.now();
const calls = [];
while (Date.now() - t0 < seconds * 1000) {
  calls.push(viaGateway(t.gatewayKey).then((r) => r.arrayBuffer().then(() => r.status)));
  await sleep(1000 / rate);
}
const statuses = await Promise.all(calls);
const { result } = await send("Profiler.stop");
ws.close();
const saved = join(os.tmpdir(), `ledgergate-gateway-${Date.now()}.cpuprofile`);
writeFileSync(saved, JSON.stringify(result.profile));

// The gateway's bundle as wrangler built it: the newest under .wrangler/tmp.
const tmp = join(root, ".wrangler", "tmp");
const bundle = readdirSync(tmp)
  .map((d) => join(tmp, d, "index.js"))
  .filter((f) => statSync(f, { throwIfNoEntry: false }))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const lines = bundle ? readFileSync(bundle, "utf8").split("\n") : [];
const moduleAt = [];
let current = "?";
for (const [i, line] of lines.entries()) {
  const m = /^\/\/ ((?:src|shared|node_modules)\/\S+)$/.exec(line);
  if (m) current = m[1].replace(/^node_modules\//, "");
  moduleAt[i] = current;
}
const where = (f) => (f.url.endsWith("index.js") ? (moduleAt[f.lineNumber] ?? "?") : "(runtime)");
/** A library's name, or src/ and shared/ to their second folder. */
const unit = (f) => {
  const w = where(f);
  if (/^(src|shared)\//.test(w)) return w.split("/").slice(0, 3).join("/");
  return /^((@[^/]+\/)?[^/]+)/.exec(w)?.[1] ?? w;
};

const p = result.profile;
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const samples = new Map();
for (const s of p.samples) samples.set(s, (samples.get(s) ?? 0) + 1);
const byFunction = new Map();
const byUnit = new Map();
let busy = 0;
for (const [id, n] of samples) {
  const f = nodes.get(id).callFrame;
  if (f.functionName === "(idle)") continue;
  busy += n;
  const name = `${f.functionName || "(anonymous)"} (${where(f)}${f.url ? `:${f.lineNumber + 1}` : ""})`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + n);
  byUnit.set(unit(f), (byUnit.get(unit(f)) ?? 0) + n);
}
const table = (title, counts, top) => {
  console.log(`\n| ${title} | share of busy samples |\n|---|---|`);
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${k} | ${((100 * n) / busy).toFixed(1)} % |`);
};
console.log(header());
console.log(
  `\nCPU profile of the gateway, ${statuses.length} warm GET /v2/ClientIntegrationInformation at ${rate}/s (non-200: ${statuses.filter((s) => s !== 200).length}); ${busy} busy samples; saved to ${saved}`,
);
table("function, self time (bundle line)", byFunction, 30);
table("library or ledgergate folder, self time", byUnit, 20);
process.exit(0);
