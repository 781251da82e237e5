// Shared by the bench's parts (bench/run.mjs, bench/orders.mjs): addresses, small HTTP helpers, the
// sandbox's counters, percentiles and the header line every bench run prints.
import { execSync } from "node:child_process";
import os from "node:os";

export const GW = "http://127.0.0.1:8787";
export const SB = "http://127.0.0.1:8788";
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
  const res = await fetch(url, { method, headers: { "content-type": "application/json", ...headers }, body: body && JSON.stringify(body) });
  return res.status === 204 ? null : res.json();
};

/** The sandbox's traffic counters (`requests` counts token requests and throttled calls too). */
export const stats = () => json("GET", `${SB}/_sandbox/stats`);

/** The `p`th percentile of `xs` (nearest rank). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** Waits until the sandbox has seen no request for `quietMs` (at most `maxMs`); false if it never went quiet. */
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

/** The line every run starts with: date, machine, node, commit (and whether the tree had uncommitted changes). */
export function header() {
  let commit = "unknown";
  try {
    commit = execSync("git rev-parse --short HEAD", { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    if (execSync("git status --porcelain --untracked-files=no", { stdio: ["ignore", "pipe", "ignore"] }).toString().trim()) commit += " + uncommitted changes";
  } catch {
    // not a git checkout
  }
  return `ledgergate bench — ${new Date().toISOString()} — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB — node ${process.version} — commit ${commit}`;
}
