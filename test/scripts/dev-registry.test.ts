/**
 * `npm start`'s cleaning of wrangler's dev registry (`scripts/dev-registry.mjs`), in Node over a
 * registry folder of its own and real sockets: an entry nothing listens on is dropped, one a live
 * pair answers on is kept, and one whose process is still dying when the pair starts again (the
 * soak's crash under load, after which the gateway reached no sandbox for 90 s) is dropped once its
 * port goes quiet.
 */
import { mkdirSync, mkdtempSync, existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dropStaleRegistryEntries } from "../../scripts/dev-registry.mjs";

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A listening socket on a free loopback port; its address. */
async function listener(): Promise<{ server: Server; address: string }> {
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { server, address: `127.0.0.1:${port}` };
}

/** A port nothing listens on: one a listener had, closed again. */
async function deadAddress(): Promise<string> {
  const { server, address } = await listener();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address;
}

function registry(entries: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "registry-"));
  mkdirSync(dir, { recursive: true });
  for (const [name, debugPortAddress] of Object.entries(entries))
    writeFileSync(join(dir, name), JSON.stringify({ debugPortAddress, instanceId: name }));
  return dir;
}

describe("npm start: a killed pair's dev-registry entries", () => {
  it("drops an entry nothing listens on and keeps one a live pair answers on", async () => {
    const live = await listener();
    const dir = registry({ "ledgergate-sandbox": await deadAddress(), ledgergate: live.address });
    const dropped = await dropStaleRegistryEntries({
      dirs: [dir, join(dir, "absent")],
      names: ["ledgergate", "ledgergate-sandbox"],
      dyingMs: 400,
      log: () => {},
    });
    expect(dropped).toEqual(["ledgergate-sandbox"]);
    expect(existsSync(join(dir, "ledgergate-sandbox"))).toBe(false);
    expect(existsSync(join(dir, "ledgergate"))).toBe(true);
  });

  it("drops the entry of a process still dying when the pair starts again, once its port goes quiet", async () => {
    const dying = await listener();
    const dir = registry({ "ledgergate-sandbox": dying.address });
    const cleaning = dropStaleRegistryEntries({
      dirs: [dir],
      names: ["ledgergate-sandbox"],
      dyingMs: 5000,
      log: () => {},
    });
    // The killed process lets go of its port while the new pair is already looking.
    setTimeout(() => dying.server.close(), 300);
    expect(await cleaning).toEqual(["ledgergate-sandbox"]);
    expect(existsSync(join(dir, "ledgergate-sandbox"))).toBe(false);
  });
});
