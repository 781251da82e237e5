/**
 * @module The token keeper's source: the registration's sealed client key, opened and sent. The
 * token is sealed bound to `token:<tenant>`: a copy moved to another tenant does not open there.
 */
import type { Bindings } from "../../kernel/config";
import type { Sealed } from "../../kernel/crypto";
import { fail, type Outcome } from "../../kernel/outcome";
import { issueToken } from "../token";
import { nameOf, type Registration } from "../../tenant/registration";
import type { Sealer } from "../../tenant/sealer";
import type { IssuedToken, TokenSource } from "./token-keeper";

/** The token source of a tenant's object; `env` and the registration are read at each request. */
export function tokenSource(
  env: () => Bindings,
  registration: Registration,
  sealer: Sealer,
): TokenSource {
  return {
    async request(): Promise<Outcome<IssuedToken>> {
      const r = registration.get();
      if (!r) return fail("unauthorized", "No such tenant.");
      const opened = await sealer.open(r.clientKey, nameOf(r));
      if (!opened)
        return fail(
          "misconfigured",
          "The client key cannot be opened with the configured SECRETS_KEY.",
        );
      if (opened.resealed && registration.get() === r)
        registration.save({ ...r, clientKey: opened.resealed });
      // `proven`: this key got tokens before, so a refusal may be the environment's keys' fault.
      return issueToken(env(), r.environment, nameOf(r), opened.text, { proven: true });
    },
    async seal(token: string): Promise<Sealed | null> {
      const r = registration.get();
      return r && sealer.seal(token, `token:${nameOf(r)}`);
    },
    async open(sealed: Sealed): Promise<string | null> {
      const r = registration.get();
      return r && ((await sealer.open(sealed, `token:${nameOf(r)}`))?.text ?? null);
    },
  };
}
