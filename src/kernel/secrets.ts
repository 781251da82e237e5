/**
 * @module
 * The keys that seal client keys: the current `SECRETS_KEY` first (it seals), then
 * `SECRETS_KEY_PREVIOUS` while a rotation is under way (it only opens).
 */
import { readConfig, type Bindings } from "./config";
import { importSecretsKey } from "./crypto";

/**
 * The configured sealing keys, current first; throws a TypeError naming the setting when it is
 * missing or malformed.
 */
export async function secretsKeys(
  env: Bindings,
): Promise<[{ kid: string; key: CryptoKey }, ...{ kid: string; key: CryptoKey }[]]> {
  const { secretsKey, previousSecretsKey } = readConfig(env);
  if (!secretsKey) throw new TypeError("SECRETS_KEY is not configured");
  const current = await importSecretsKey(secretsKey);
  return previousSecretsKey ? [current, await importSecretsKey(previousSecretsKey)] : [current];
}
