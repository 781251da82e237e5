/**
 * @module
 * What the API's layers read from every call: the subscription key and the bearer token.
 */

/** The subscription key from its header, or from APIM's `subscription-key` query parameter. */
export function subscriptionKeyOf(req: Request): string | null {
  const header = req.headers.get("ocp-apim-subscription-key");
  if (header) return header;
  for (const [k, v] of new URL(req.url).searchParams)
    if (k.toLowerCase() === "subscription-key") return v;
  return null;
}

/** When the local gateway says it sent the call (`x-ledgergate-sent-at`, epoch ms), or null. */
export function sentAtOf(req: Request): number | null {
  const n = Number(req.headers.get("x-ledgergate-sent-at") ?? "");
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The bearer token of `Authorization`, or null. */
export function bearerOf(req: Request): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return m?.[1] ?? null;
}
