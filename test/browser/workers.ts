/**
 * Both Workers for the browser tests, started the way `npm start` and the bench start them
 * (scripts/dev.mjs, `wrangler dev`), but on free ports, with state in a new temporary folder and a
 * dev registry of their own: a running `npm start` or bench is neither reached nor disturbed, and
 * every run begins with no tenant and no sandbox client.
 *
 * They run from a copy of the Workers' sources taken at the start (node_modules linked, not
 * copied): `wrangler dev` reloads a Worker whenever its sources change, and a reload loses a
 * Workflow waiting between retries, so an edit made while the tests run must not reach them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
/** The Workers' own output, kept for a failed run (overwritten by the next one). */
export const WORKERS_LOG = join(ROOT, ".build", "browser", "workers.log");
/**
 * What the Workers are built from (besides node_modules): copied, so that edits during a run do not
 * reload them.
 */
const SOURCES = [
  "src",
  "shared",
  "sandbox",
  "scripts/dev.mjs",
  "scripts/dev-registry.mjs",
  "scripts/wrangler-env.mjs",
  "wrangler.toml",
  "tsconfig.json",
  "tsconfig.base.json",
  "package.json",
];

/** A copy of the Workers' sources under `dir`, with the project's node_modules linked in. */
function snapshotSources(dir: string): void {
  for (const path of SOURCES) {
    cpSync(join(ROOT, path), join(dir, path), {
      recursive: true,
      filter: (from) => !/[/\\](\.wrangler|node_modules)([/\\]|$)/.test(from.slice(ROOT.length)),
    });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
}

/**
 * How long both Workers may take to answer: wrangler bundles and starts workerd twice, on a loaded
 * machine.
 */
const START_TIMEOUT_MS = 240_000;

export interface Workers {
  /** The gateway's origin, e.g. http://127.0.0.1:40123. */
  gateway: string;
  /** The sandbox's origin. */
  sandbox: string;
  /** Stops both Workers and deletes their state. */
  stop(): Promise<void>;
  /**
   * How many times wrangler reloaded a Worker because its sources changed (someone edited the tree
   * during the run). A reload drops the Workers' connections and in-memory state, and may lose a
   * Workflow waiting between retries, so a failure after one is suspect.
   */
  reloads(): number;
}

/** `count` distinct ports free on 127.0.0.1 right now (held open together, so none repeats). */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((ok, fail) => {
        server.once("error", fail);
        server.listen(0, "127.0.0.1", ok);
      });
      const address = server.address();
      if (address === null || typeof address === "string")
        throw new Error("no TCP address for a probe socket");
      ports.push(address.port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok()))));
  }
}

/** The last lines of the Workers' log, for an error message. */
function logTail(lines = 40): string {
  try {
    return readFileSync(WORKERS_LOG, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Waits until `url` answers 2xx, the Workers' process is gone, or time is up. */
async function answersOk(url: string, child: ChildProcess, deadline: number): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `scripts/dev.mjs exited (${child.exitCode ?? child.signalCode}) before ${url} answered. Its output (${WORKERS_LOG}):\n${logTail()}`,
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(
        `${url} did not answer within ${START_TIMEOUT_MS / 1000} s. The Workers' output (${WORKERS_LOG}):\n${logTail()}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Starts the sandbox and the gateway and waits until both answer. */
export async function startWorkers(): Promise<Workers> {
  const [gatewayPort, sandboxPort, gatewayInspector, sandboxInspector] = (await freePorts(4)) as [
    number,
    number,
    number,
    number,
  ];
  const state = mkdtempSync(join(tmpdir(), "ledgergate-browser-"));
  const tree = join(state, "tree");
  snapshotSources(tree);
  mkdirSync(join(ROOT, ".build", "browser"), { recursive: true });
  const out = openSync(WORKERS_LOG, "w");
  const child = spawn(process.execPath, [join(tree, "scripts", "dev.mjs")], {
    cwd: tree,
    env: {
      ...process.env,
      LEDGERGATE_GATEWAY_PORT: String(gatewayPort),
      LEDGERGATE_SANDBOX_PORT: String(sandboxPort),
      LEDGERGATE_GATEWAY_INSPECTOR_PORT: String(gatewayInspector),
      LEDGERGATE_SANDBOX_INSPECTOR_PORT: String(sandboxInspector),
      LEDGERGATE_PERSIST_DIR: join(state, "state"),
      // Its own dev registry: the gateway's SANDBOX binding must find this sandbox, not `npm
      // start`'s.
      WRANGLER_REGISTRY_PATH: join(state, "registry"),
    },
    stdio: ["ignore", out, out],
    // Its own process group, so stopping it reaches wrangler and workerd too.
    detached: true,
  });
  closeSync(out);
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const group = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    group("SIGTERM");
    // dev.mjs stops its children and exits within a second; whatever is left after 15 s is killed.
    const gone = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 15_000)),
    ]);
    await new Promise((r) => setTimeout(r, 1_000));
    group("SIGKILL");
    if (!gone) await exited;
    rmSync(state, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };

  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const sandbox = `http://127.0.0.1:${sandboxPort}`;
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    await answersOk(`${sandbox}/_sandbox/keys`, child, deadline);
    await answersOk(`${gateway}/healthz`, child, deadline);
  } catch (e) {
    await stop();
    throw e;
  }
  const reloads = (): number => {
    try {
      return readFileSync(WORKERS_LOG, "utf8").split("Reloading local server").length - 1;
    } catch {
      return 0;
    }
  };
  return { gateway, sandbox, stop, reloads };
}
