#!/usr/bin/env node
// A webhook receiver on this machine, for trying events out (docs/events.md) and for `npm run bench
// -- events`: `node scripts/webhook-receiver.mjs` listens on 127.0.0.1:$LEDGERGATE_RECEIVER_PORT
// (default 8790) and prints one line per event it gets. With LEDGERGATE_WHSEC set (an endpoint's
// `whsec_` secret) it verifies each signature with the `standardwebhooks` package first and answers
// 401 to one that does not verify. Add it as an endpoint with `http://127.0.0.1:<port>/…` (the
// local configuration takes http to loopback). Stop it with Ctrl-C.
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";

/** The port from LEDGERGATE_RECEIVER_PORT, 8790 by default. */
export const receiverPort = (env = process.env) => Number(env.LEDGERGATE_RECEIVER_PORT || 8790);

/**
 * Starts a receiver. `answer({ path, event, headers, attempt, body })` decides each answer: a
 * status, or "drop" to cut the connection without one, or a promise of either (a slow receiver);
 * by default 200 (`attempt` counts the requests with the same `webhook-id`). `onEvent` gets every
 * request that came, with its answer. Resolves to `{ port, close() }` once it listens.
 */
export function startReceiver({
  port = receiverPort(),
  answer = () => 200,
  onEvent = () => {},
} = {}) {
  const attempts = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = req.headers["webhook-id"] ?? "";
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      let event = null;
      try {
        event = JSON.parse(body);
      } catch {
        // not JSON: answered as the callback says
      }
      const at = Date.now();
      const status = await answer({
        path: req.url ?? "",
        event,
        headers: req.headers,
        attempt,
        body,
      });
      onEvent({ at, path: req.url, headers: req.headers, body, event, attempt, status });
      if (status === "drop") return req.socket.destroy();
      res.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve({ port, close: () => new Promise((r) => server.close(() => r())) }),
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const secret = process.env.LEDGERGATE_WHSEC;
  const verifier = secret ? new Webhook(secret) : null;
  const { port } = await startReceiver({
    answer: ({ headers, body }) => {
      if (!verifier) return 200;
      try {
        verifier.verify(body, headers);
        return 200;
      } catch {
        return 401;
      }
    },
    onEvent: ({ at, path, event, status }) =>
      console.log(
        `${new Date(at).toISOString()} ${path} ${status} ${event?.type ?? "?"} ${event?.id ?? ""}${verifier ? (status === 200 ? " (verified)" : " (signature refused)") : ""}`,
      ),
  });
  console.log(`Webhook receiver on http://127.0.0.1:${port}/ (Ctrl-C to stop).`);
}
