#!/usr/bin/env node
// `npm start`: the sandbox on http://127.0.0.1:8788 and the gateway on http://127.0.0.1:8787, the
// gateway reaching the sandbox through its SANDBOX service binding (wrangler's local dev registry).
// State persists under .wrangler/ in each Worker's folder, so clients and data survive a restart.
// Other ports and state (the browser tests run a second pair beside `npm start`): the environment
// variables LEDGERGATE_GATEWAY_PORT and LEDGERGATE_SANDBOX_PORT (the same ones `npm run demo:order`
// and the bench read, see localAddresses in scripts/wrangler-env.mjs),
// LEDGERGATE_GATEWAY_INSPECTOR_PORT, LEDGERGATE_SANDBOX_INSPECTOR_PORT, and LEDGERGATE_PERSIST_DIR
// (state under <dir>/gateway and <dir>/sandbox). A second pair also needs its own WRANGLER_REGISTRY_PATH, so that its gateway's
// SANDBOX binding finds its own sandbox. LEDGERGATE_EVENT_RETRY_SCHEDULE sets the gateway's
// EVENT_RETRY_SCHEDULE (webhook retries, e.g. "1s 2s 5s"; `npm run bench -- events` shortens it).
// The watcher's shortest cycle is 5 s here (WATCHER_CYCLE_SECONDS; 30 when deployed), so a change
// made in the sandbox directly arrives within seconds; LEDGERGATE_WATCHER_CYCLE_SECONDS sets
// another, LEDGERGATE_WATCHER_BUDGET_SHARE the watchers' share of the limit (WATCHER_BUDGET_SHARE),
// LEDGERGATE_RUN_STALL_SECONDS the gateway's RUN_STALL_SECONDS (60 here, 600 deployed: how long a
// run may stay silent before the alarm revives it), LEDGERGATE_EVENT_QUEUE_LEASE_SECONDS its
// EVENT_QUEUE_LEASE_SECONDS (120 here, 900 deployed: how long a queued webhook delivery may go
// unreported before it is sent again; the local queue loses what a crash interrupted), and
// LEDGERGATE_LOG_LEVEL the gateway's LOG_LEVEL (`warn` drops the request lines: under `wrangler dev`
// each line goes through the inspector, about 2.7 ms of CPU a call).
import { spawn } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { dropStaleRegistryEntries } from "./dev-registry.mjs";
import { bin, localAddresses, root, wranglerEnv } from "./wrangler-env.mjs";

const env = wranglerEnv();
/** The watcher's shortest cycle under `npm start`, s: an outside change arrives within 15 s. */
const LOCAL_WATCHER_CYCLE_SECONDS = "5";
/** How long a run under `npm start` may stay silent before the alarm revives it, s (600 deployed). */
const LOCAL_RUN_STALL_SECONDS = "60";
const LOCAL_EVENT_QUEUE_LEASE_SECONDS = "120";

const port = (name, fallback) => process.env[name] || fallback;
const { gatewayPort, sandboxPort } = localAddresses();
const persist = (worker) =>
  process.env.LEDGERGATE_PERSIST_DIR
    ? ["--persist-to", join(process.env.LEDGERGATE_PERSIST_DIR, worker)]
    : [];
const workers = [
  // SANDBOX_PUBLIC_URL: the gateway reaches the sandbox through its binding, but a browser opens
  // the onboarding page here.
  {
    name: "sandbox",
    args: [
      "dev",
      "--config",
      "sandbox/wrangler.toml",
      "--ip",
      "127.0.0.1",
      "--port",
      sandboxPort,
      "--inspector-port",
      port("LEDGERGATE_SANDBOX_INSPECTOR_PORT", "9230"),
      "--var",
      "SANDBOX_CONTROL:true",
      "--var",
      `SANDBOX_PUBLIC_URL:http://127.0.0.1:${sandboxPort}`,
      ...persist("sandbox"),
    ],
  },
  {
    name: "gateway",
    args: [
      "dev",
      "--config",
      "wrangler.toml",
      "--ip",
      "127.0.0.1",
      "--port",
      gatewayPort,
      "--inspector-port",
      port("LEDGERGATE_GATEWAY_INSPECTOR_PORT", "9229"),
      ...(process.env.LEDGERGATE_EVENT_RETRY_SCHEDULE
        ? ["--var", `EVENT_RETRY_SCHEDULE:${process.env.LEDGERGATE_EVENT_RETRY_SCHEDULE}`]
        : []),
      "--var",
      `WATCHER_CYCLE_SECONDS:${process.env.LEDGERGATE_WATCHER_CYCLE_SECONDS || LOCAL_WATCHER_CYCLE_SECONDS}`,
      ...(process.env.LEDGERGATE_WATCHER_BUDGET_SHARE
        ? ["--var", `WATCHER_BUDGET_SHARE:${process.env.LEDGERGATE_WATCHER_BUDGET_SHARE}`]
        : []),
      // `wrangler dev` does not resume a run its crash interrupted: the alarm revives it sooner.
      "--var",
      `RUN_STALL_SECONDS:${process.env.LEDGERGATE_RUN_STALL_SECONDS || LOCAL_RUN_STALL_SECONDS}`,
      "--var",
      `EVENT_QUEUE_LEASE_SECONDS:${process.env.LEDGERGATE_EVENT_QUEUE_LEASE_SECONDS || LOCAL_EVENT_QUEUE_LEASE_SECONDS}`,
      ...(process.env.LEDGERGATE_LOG_LEVEL
        ? ["--var", `LOG_LEVEL:${process.env.LEDGERGATE_LOG_LEVEL}`]
        : []),
      ...persist("gateway"),
    ],
  },
];

await dropStaleRegistryEntries({
  dirs: [
    process.env.WRANGLER_REGISTRY_PATH,
    join(homedir(), ".config", ".wrangler", "registry"),
    join(homedir(), ".wrangler", "registry"),
  ],
  names: ["ledgergate", "ledgergate-sandbox"],
});
const children = [];
function launch({ name, args }) {
  const child = spawn(join(bin, "wrangler"), args, {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = (line) => (line ? `[${name}] ${line}\n` : "");
  child.stdout.on("data", (b) =>
    process.stdout.write(b.toString().split("\n").map(prefix).join("")),
  );
  child.stderr.on("data", (b) =>
    process.stderr.write(b.toString().split("\n").map(prefix).join("")),
  );
  child.on("exit", (code) => {
    console.error(`[${name}] exited with ${code}; stopping.`);
    stop(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function ready(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).status < 500) return true;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}
// The sandbox first, the gateway once it answers: a gateway that starts before the sandbox is in the
// dev registry may not see it arrive for a minute or more (after a crash, every /v2 call was 502).
const [sandbox, gateway] = workers;
launch(sandbox);
const sandboxUp = await ready(`http://127.0.0.1:${sandboxPort}/_sandbox/keys`);
launch(gateway);
if (sandboxUp && (await ready(`http://127.0.0.1:${gatewayPort}/healthz`))) {
  console.log(
    `\nledgergate is running:\n  gateway  http://127.0.0.1:${gatewayPort}  (admin token: local-admin-token)\n  sandbox  http://127.0.0.1:${sandboxPort}  (control API: /_sandbox/keys, /_sandbox/clients, ...)\n`,
  );
}
