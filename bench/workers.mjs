// Starting and stopping one local Worker with `wrangler dev`, for the parts that need a Worker with
// other vars than `npm start` gives it (bench/request-log.mjs restarts the gateway with
// REQUEST_LOG set). The ports are the ones scripts/dev.mjs reads (LEDGERGATE_*_PORT), so a run
// beside other pairs on the machine stays on its own.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bin, localAddresses, root, wranglerEnv } from "../scripts/wrangler-env.mjs";
import { answers, sleep } from "./lib.mjs";

const { gatewayPort, sandboxPort } = localAddresses();

/** The gateway and the sandbox as scripts/dev.mjs starts them: config, port, inspector, vars. */
export const WORKERS = {
  gateway: {
    config: "wrangler.toml",
    port: gatewayPort,
    inspector: process.env.LEDGERGATE_GATEWAY_INSPECTOR_PORT || "9229",
    vars: [],
  },
  sandbox: {
    config: "sandbox/wrangler.toml",
    port: sandboxPort,
    inspector: process.env.LEDGERGATE_SANDBOX_INSPECTOR_PORT || "9230",
    vars: ["SANDBOX_CONTROL:true", `SANDBOX_PUBLIC_URL:http://127.0.0.1:${sandboxPort}`],
  },
};

/**
 * Starts `worker` (one of `WORKERS`) with `vars` added (`NAME:value`), its output to the file
 * descriptor `out`; answers a function that stops it (its whole process group) and waits until its
 * port is free again.
 */
export function startWorker(worker, vars, out) {
  const args = [
    "dev",
    "--config",
    worker.config,
    "--ip",
    "127.0.0.1",
    "--port",
    worker.port,
    "--inspector-port",
    worker.inspector,
    ...[...worker.vars, ...vars].flatMap((v) => ["--var", v]),
  ];
  const child = spawn(join(bin, "wrangler"), args, {
    cwd: root,
    env: wranglerEnv(),
    stdio: ["ignore", out, out],
    detached: true,
  });
  const kill = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", kill);
  return async () => {
    process.off("exit", kill);
    kill();
    await down(`http://127.0.0.1:${worker.port}/`);
  };
}

/** Waits until `url` no longer answers (a stopped Worker has let its port go), a minute at most. */
export async function down(url) {
  for (let i = 0; i < 120 && (await answers(url)); i++) await sleep(500);
}
