import { readConfig, type Bindings } from "./config";
import { importSecretsKey } from "./crypto";

/** `SECRETS_KEY` (seals), then `SECRETS_KEY_PREVIOUS` in a rotation (opens); TypeError if bad. */
export async function secretsKeys(
  env: Bindings,
): Promise<[{ kid: string; key: CryptoKey }, ...{ kid: string; key: CryptoKey }[]]> {
  const { secretsKey, previousSecretsKey } = readConfig(env);
  if (!secretsKey) throw new TypeError("SECRETS_KEY is not configured");
  const current = await importSecretsKey(secretsKey);
  return previousSecretsKey ? [current, await importSecretsKey(previousSecretsKey)] : [current];
}
