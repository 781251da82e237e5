/**
 * `npm run demo:order` against both Workers under `wrangler dev` (./workers.ts), as a newcomer runs
 * it (issue 24): it finds them by the same variables `npm start` reads (LEDGERGATE_GATEWAY_PORT,
 * LEDGERGATE_SANDBOX_PORT), and a second run reuses the demo's tenant instead of registering
 * another one with the same name. No browser: the project runs in Node beside the Workers.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type Workers } from "./workers";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const ADMIN = { authorization: "Bearer local-admin-token" };

let workers: Workers | undefined;

beforeAll(async () => {
  workers = await startWorkers();
});

afterAll(async () => {
  await workers?.stop();
});

/** One `npm run demo:order` (the script itself, with this Node), told only the two ports. */
async function demo(): Promise<string> {
  if (!workers) throw new Error("the Workers did not start");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LEDGERGATE_GATEWAY_PORT: new URL(workers.gateway).port,
    LEDGERGATE_SANDBOX_PORT: new URL(workers.sandbox).port,
  };
  delete env.LEDGERGATE_URL;
  delete env.SANDBOX_URL;
  try {
    const { stdout } = await run(process.execPath, ["scripts/demo-order.mjs"], { cwd: ROOT, env });
    return stdout;
  } catch (e) {
    const { stdout = "", stderr = "" } = e as { stdout?: string; stderr?: string };
    throw new Error(`demo:order failed:\n${stdout}\n${stderr}`, { cause: e });
  }
}

/** The demo environment's tenants, as the operator lists them. */
async function demoTenants(): Promise<{ client: string; name: string }[]> {
  const res = await fetch(`${workers?.gateway}/admin/tenants`, { headers: ADMIN });
  expect(res.status).toBe(200);
  const { tenants } = (await res.json()) as {
    tenants: { environment: string; client: string; name: string }[];
  };
  return tenants.filter((t) => t.environment === "demo");
}

describe("demo:order", () => {
  it("settles an order, found through LEDGERGATE_GATEWAY_PORT and LEDGERGATE_SANDBOX_PORT", async () => {
    const out = await demo();
    expect(out).toContain("✓ Settled.");
    expect(out).toContain(workers?.gateway);
  });

  it("reuses its tenant on a second run: one tenant of that name, and the order settles", async () => {
    const before = await demoTenants();
    expect(before).toHaveLength(1);
    const out = await demo();
    expect(out).toContain("✓ Settled.");
    expect(out).toMatch(/reused/i);
    const names = (ts: { client: string; name: string }[]) =>
      ts.map((t) => `${t.client} ${t.name}`);
    expect(names(await demoTenants())).toEqual(names(before));
  });
});
