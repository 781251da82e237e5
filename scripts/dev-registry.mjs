// The part of `npm start` (scripts/dev.mjs) that clears wrangler's dev registry of a killed pair's
// entries before the pair starts again; its test is test/scripts/dev-registry.test.ts.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";

/** How long an entry's port may still answer after its process was killed, ms. */
const DYING_MS = 8000;

/**
 * Removes the entries `names` from each registry folder of `dirs` when nothing listens on their
 * debug port any more: a pair killed (SIGKILL, a crash) leaves them behind, and a gateway started
 * beside such an entry reached no sandbox for 85–90 s (a new Worker does not register while
 * another's entry is younger than 90 s). A process killed under load may hold its port a few
 * seconds more, so an entry is given `dyingMs` to go quiet; one still answered after that is a
 * live pair's and is kept. Answers the names dropped.
 */
export async function dropStaleRegistryEntries({
  dirs,
  names,
  dyingMs = DYING_MS,
  log = console.log,
}) {
  const entries = dirs
    .filter((d) => d && existsSync(d))
    .flatMap((dir) => names.map((name) => ({ name, file: join(dir, name) })));
  const dropped = await Promise.all(
    entries.map(async ({ name, file }) => {
      let address;
      try {
        address = JSON.parse(readFileSync(file, "utf8")).debugPortAddress;
      } catch {
        return null;
      }
      if (typeof address !== "string" || (await stillListening(address, dyingMs))) return null;
      rmSync(file, { force: true });
      log(`Dropped ${name}'s stale dev-registry entry (nothing listens on ${address}).`);
      return name;
    }),
  );
  return dropped.filter((n) => n !== null);
}

/** Whether `address` keeps accepting connections for `ms` (checked every 250 ms at most). */
async function stillListening(address, ms) {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (!(await listening(address))) return false;
    await new Promise((r) => setTimeout(r, Math.min(250, ms / 4)));
  }
  return true;
}

/** Whether something accepts a TCP connection on `host:port` within a second. */
function listening(address) {
  const [host, port] = [
    address.slice(0, address.lastIndexOf(":")),
    address.slice(address.lastIndexOf(":") + 1),
  ];
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port), timeout: 1000 });
    const done = (up) => {
      socket.destroy();
      resolve(up);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}
