/**
 * @module
 * The one client of Vipps MobilePay: a sales unit's token from `POST /accesstoken/get` (taken once
 * per client, when its first read needs it), then read-only `GET`s with it and the subscription
 * key. No permit of the accounting API's governor: Vipps has its own limits. The keys go only in
 * headers and never into what it answers.
 */
import { readConfig, type Bindings } from "../../kernel/config";
import { exchange } from "../../upstream/transport";
import { TokenAnswer } from "./api";

/** The longest one Vipps call may take, ms. */
export const VIPPS_TIMEOUT_MS = 20_000;
/** The most of an answer read, bytes: a page of 1,000 rows is ~300 KB. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** A sales unit's keys (payouts-facts: the merchant's own API keys). */
export interface VippsKeys {
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  merchantSerialNumber: string;
}

export type VippsAnswer =
  | { kind: "ok"; body: unknown }
  /** Vipps refused the keys or the request (4xx other than 429): the same will be refused again. */
  | { kind: "refused"; status: number; detail: string }
  /** No answer, a 429 or a 5xx: the same request may pass later. */
  | { kind: "unavailable"; status: number | null; detail: string };

export interface VippsClient {
  get(path: string, query: Record<string, string>): Promise<VippsAnswer>;
  /** Calls made, the token's included. */
  readonly calls: number;
}

/** Its calls throw only when `VIPPS_API_BASE_URL` is not an https:// URL (callers check first). */
export function vippsClient(env: Bindings, keys: VippsKeys): VippsClient {
  const base = readConfig(env).vippsApiBaseUrl;
  let calls = 0;
  let token: string | null = null;
  const send = async (method: string, url: string, headers: Record<string, string>) => {
    if (base === null) throw new TypeError("VIPPS_API_BASE_URL is not an https:// URL");
    calls++;
    const sent = await exchange(
      env,
      `${base}${url}`,
      {
        method,
        headers: {
          "ocp-apim-subscription-key": keys.subscriptionKey,
          "merchant-serial-number": keys.merchantSerialNumber,
          "vipps-system-name": "ledgergate",
          accept: "application/json",
          "user-agent": "ledgergate-payouts",
          ...headers,
        },
      },
      VIPPS_TIMEOUT_MS,
    );
    if (!sent.ok)
      return {
        kind: "unavailable",
        status: null,
        detail: sent.failure === "timeout" ? "Vipps did not answer in time" : "no connection",
      } as const;
    return read(sent.response);
  };
  return {
    get calls() {
      return calls;
    },
    async get(path, query) {
      if (token === null) {
        const t = await send("POST", "/accesstoken/get", {
          client_id: keys.clientId,
          client_secret: keys.clientSecret,
        });
        if (t.kind !== "ok")
          return t.kind === "refused" ? { ...t, detail: `access token: ${t.detail}` } : t;
        const parsed = TokenAnswer.safeParse(t.body);
        if (!parsed.success)
          return {
            kind: "unavailable",
            status: 200,
            detail: "Vipps's token answer has no access_token",
          };
        token = parsed.data.access_token;
      }
      const search = new URLSearchParams(query).toString();
      return send("GET", `${path}${search ? `?${search}` : ""}`, {
        authorization: `Bearer ${token}`,
      });
    },
  };
}

/** The answer sorted; a body that is not JSON is Vipps's fault, tried again later. */
async function read(res: Response): Promise<VippsAnswer> {
  const bytes = await res.arrayBuffer();
  const text = bytes.byteLength > MAX_ANSWER_BYTES ? "" : new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (res.status >= 200 && res.status < 300 && body !== null) return { kind: "ok", body };
  if (res.status === 429 || res.status >= 500 || res.status < 400)
    return { kind: "unavailable", status: res.status, detail: `Vipps answered ${res.status}` };
  return { kind: "refused", status: res.status, detail: `HTTP ${res.status}: ${said(body)}` };
}

/** What an error body says, in a line (Vipps's shapes differ by API): never a key. */
function said(body: unknown): string {
  if (body === null || typeof body !== "object") return "no details";
  const b = body as Record<string, unknown>;
  const text = [b.detail, b.message, b.error_description, b.title, b.code, b.error].find(
    (v): v is string => typeof v === "string" && v !== "",
  );
  return (text ?? "no details").slice(0, 300);
}
