/**
 * @module
 * A webhook delivery as it crosses to the tenant's object: the raw bytes (size-capped before they
 * are read in full) and the headers a signature scheme may need, less other schemes' credentials.
 */
import { readCapped } from "../../shared/bytes";
import { Problem } from "../kernel/problem";

/** Largest webhook body, bytes: a large Shopify order is tens of kB. */
export const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;

/** Headers that never reach the tenant's object: credentials of other schemes, and cookies. */
const DROPPED = new Set(["authorization", "cookie", "proxy-authorization"]);

/** The delivery's headers (as pairs, which cross RPC) and body; throws 413 past the cap. */
export async function readDelivery(
  req: Request,
): Promise<{ headers: [string, string][]; body: Uint8Array }> {
  const tooLarge = () =>
    new Problem("payload-too-large", `Webhook bodies are limited to ${MAX_WEBHOOK_BYTES} bytes.`);
  if (Number(req.headers.get("content-length") ?? 0) > MAX_WEBHOOK_BYTES) throw tooLarge();
  const body = req.body ? await readCapped(req.body, MAX_WEBHOOK_BYTES) : new Uint8Array();
  if (body === null) throw tooLarge();
  return { headers: [...req.headers].filter(([k]) => !DROPPED.has(k.toLowerCase())), body };
}
