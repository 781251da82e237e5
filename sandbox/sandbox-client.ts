/**
 * @module
 * `sandboxClient`, exported from `ledgergate/sandbox`: the sandbox for an integrator's own tests in
 * three lines. Runs inside the Workers runtime (a test of `@cloudflare/vitest-plugin`), through the
 * service binding the test has to the sandbox; it imports nothing from Node.
 *
 * @example
 * const { client, token, v2 } = await sandboxClient(env.SANDBOX);
 * const { response } = await v2.POST("/Customers", { body: { Name: "Acme AS" } }); // 201
 */
import { createLedgergateClient, type ExactClient, type V2Paths } from "../client/index.js";

/** What the test has of the sandbox: its service binding (a `Fetcher`). */
export interface SandboxBinding {
  fetch(request: Request): Promise<Response>;
}

/** Options of {@link sandboxClient}. */
export interface SandboxClientOptions {
  /** Which environment of the API the client lives in. Default `"demo"`. */
  environment?: "demo" | "production";
  /** The client company's name in the sandbox. Default `"Sandbox test client"`. */
  name?: string;
  /**
   * The origin the binding is called with; any `https://` host (the sandbox refuses plain HTTP
   * except on loopback). Default `https://sandbox.test`.
   */
  origin?: string;
}

/** A fresh sandbox client, a token for it, and a typed API v2 client that uses both. */
export interface SandboxClient {
  /** The client as `POST /_sandbox/clients` made it; `clientKey` is its secret. */
  client: { clientId: string; clientKey: string; environment: "demo" | "production" };
  /** A live access token of the client (`expires_in` 1200 s unless the settings change it). */
  token: string;
  /** The environment's integration keys (`GET /_sandbox/keys`). */
  keys: { applicationKey: string; subscriptionKey: string };
  /**
   * API v2 of this client, typed (`ledgergate/client`'s v2 types, exact: a misspelt body property
   * does not compile): the token as bearer and the subscription key added on every call.
   */
  v2: ExactClient<V2Paths>;
}

/**
 * Creates a client in the sandbox, gets it a token and returns a typed v2 client for it. Each call
 * makes a new client, so tests do not share data.
 *
 * @param sandbox - the test's service binding to the sandbox (`env.SANDBOX`)
 * @param options - environment, name, origin
 * @returns `{ client, token, keys, v2 }`
 * @throws Error naming the call and its answer when the sandbox refuses one (e.g. its control API
 *   is off: `SANDBOX_CONTROL` must be `"true"`, as `sandboxWorker()` sets it)
 * @example const { v2 } = await sandboxClient(env.SANDBOX, { environment: "production" });
 */
export async function sandboxClient(
  sandbox: SandboxBinding,
  options: SandboxClientOptions = {},
): Promise<SandboxClient> {
  const environment = options.environment ?? "demo";
  const origin = (options.origin ?? "https://sandbox.test").replace(/\/+$/, "");
  // The API's roots: demo under /Demo, production at the top (as the real API).
  const root = environment === "demo" ? `${origin}/Demo` : origin;
  const call = async <T>(what: string, request: Request): Promise<T> => {
    const res = await sandbox.fetch(request);
    if (!res.ok)
      throw new Error(`sandboxClient: ${what} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  const json = { "content-type": "application/json" };

  const allKeys = await call<Record<string, SandboxClient["keys"]>>(
    "GET /_sandbox/keys",
    new Request(`${origin}/_sandbox/keys`),
  );
  const keys = allKeys[environment];
  if (!keys) throw new Error(`sandboxClient: the sandbox has no keys for ${environment}`);
  const client = await call<SandboxClient["client"]>(
    "POST /_sandbox/clients",
    new Request(`${origin}/_sandbox/clients`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ environment, name: options.name ?? "Sandbox test client" }),
    }),
  );
  const { access_token: token } = await call<{ access_token: string }>(
    "POST OAuth/Token",
    new Request(`${root}/OAuth/Token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${keys.applicationKey}:${client.clientKey}`)}`,
        "ocp-apim-subscription-key": keys.subscriptionKey,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
    }),
  );
  // The gateway's client, pointed at the API's root: the token goes where a gateway key would, and
  // the subscription key (which the gateway would add) is added here.
  const { v2 } = createLedgergateClient({
    baseUrl: root,
    gatewayKey: token,
    fetch: (request) => {
      const headers = new Headers(request.headers);
      headers.set("ocp-apim-subscription-key", keys.subscriptionKey);
      return sandbox.fetch(new Request(request, { headers }));
    },
  });
  return { client, token, keys, v2 };
}
