/**
 * @module
 * Setting a source's webhook secret, and binding the shop of a source that names its shop. Such a
 * secret is taken only with its shop, and only if no other tenant holds it on that shop (the
 * directory's index, `orders/directory-shop-claims.ts`, asked with its SHA-256): sealed, claimed,
 * then stored with its shop in one synchronous stretch. Calls run one at a time, since two
 * interleaved at the claim could leave the index naming a secret the tenant did not keep.
 */
import { sha256Hex } from "../../kernel/crypto";
import { ADAPTERS } from "../adapters/adapters";
import type { Source } from "../order";
import { fail, failOn, ok, type Outcome } from "../../kernel/outcome";
import type { TenantName } from "../../kernel/stubs";
import type { ClaimAnswer, SecretOnShop, ShopClaim } from "../directory-shop-claims";
import {
  retiresAt,
  type OrderSettings,
  type SecretOptions,
  type SecretSet,
} from "./order-settings";
import type { ShopBinding, ShopPins, ShopRefusal } from "./shop-pins";

/** The cross-tenant index, as the tenant reaches it (`Directory.claimShop`). */
export interface ShopIndex {
  claim(claim: ShopClaim): Promise<ClaimAnswer>;
}

/** What the operator sees of a source's shop: its binding and the last delivery refused. */
export interface ShopView {
  source: Source;
  binding: ShopBinding | null;
  lastRefusal: ShopRefusal | null;
}

/** The sources that name their shop in a delivery. */
const SHOP_SOURCES = Object.values(ADAPTERS)
  .filter((a) => a.shopOf !== undefined)
  .map((a) => a.source);

export class WebhookSetup {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: OrderSettings,
    private readonly pins: ShopPins,
    private readonly index: ShopIndex,
  ) {}

  /**
   * Sets `source`'s secret (with `graceSeconds`, a rotation). A source that names its shop needs
   * `shopDomain` (422), refused (409) if another tenant holds this secret there; others take none.
   */
  configure(
    tenant: TenantName,
    source: Source,
    secret: string,
    opts: SecretOptions,
    now: number,
  ): Promise<Outcome<SecretSet>> {
    if (!SHOP_SOURCES.includes(source))
      return Promise.resolve(
        opts.shopDomain === undefined
          ? this.settings.configure(tenant, source, secret, opts, now)
          : failOn(
              "shopDomain",
              "bad-request",
              `shopDomain applies to sources that name their shop (shopify), not to ${source}.`,
            ),
      );
    const shop = opts.shopDomain;
    if (shop === undefined)
      return Promise.resolve(
        failOn(
          "shopDomain",
          "unprocessable",
          `A ${source} secret is bound to its shop: give the shop's domain (<shop>.myshopify.com) as shopDomain. Every shop of one app signs with the same secret, so without it another shop's orders could be booked here.`,
        ),
      );
    return this.#serial(async () => {
      const sealed = await this.settings.seal(tenant, source, secret);
      if (!sealed) return fail("misconfigured", "SECRETS_KEY is not configured.");
      const previousRetiresAt = retiresAt(opts, now);
      const held = previousRetiresAt === undefined ? [] : await this.#held(tenant, source);
      const claimed = await this.#claim(tenant, source, secret, shop, held);
      if (!claimed.ok) return claimed;
      // No await from here: the secret and its shop are stored together.
      const set = this.settings.store(source, sealed, previousRetiresAt);
      this.pins.bind(source, shop);
      return ok(set);
    });
  }

  /**
   * Makes the shop a first delivery pinned (as the console showed it) the operator's binding, once
   * claimed in the index with the current secret.
   */
  confirmShop(tenant: TenantName, source: Source, shop: string): Promise<Outcome<ShopBinding>> {
    return this.#serial(async () => {
      const bound = this.pins.binding(source);
      if (bound?.shop !== shop)
        return fail("conflict", `The ${source} shop is no longer ${shop}; reload and look again.`);
      if (bound.boundBy === "operator") return ok(bound);
      const secret = await this.settings.secret(tenant, source);
      if (secret === null)
        return fail(
          "conflict",
          `No ${source} secret can be opened to confirm ${shop} with: set the secret again, with the shop's domain.`,
        );
      const claimed = await this.#claim(tenant, source, secret, shop, []);
      if (!claimed.ok) return claimed;
      if (!this.pins.confirm(source, shop))
        return fail("conflict", `The ${source} shop changed meanwhile; reload and look again.`);
      return ok({ shop, boundBy: "operator" as const });
    });
  }

  /** Each shop-naming source's binding and last refusal, for the operator. */
  view(): ShopView[] {
    return SHOP_SOURCES.map((source) => ({
      source,
      binding: this.pins.binding(source),
      lastRefusal: this.pins.lastRefusal(source),
    }));
  }

  async #claim(
    tenant: TenantName,
    source: Source,
    secret: string,
    shop: string,
    held: SecretOnShop[],
  ): Promise<Outcome<null>> {
    const answer = await this.index.claim({
      tenant,
      source,
      fingerprint: await sha256Hex(secret),
      shop,
      held,
    });
    return answer.ok
      ? ok(null)
      : failOn(
          "shopDomain",
          "conflict",
          `Tenant ${answer.tenant} already uses this ${source} secret for ${shop}: a delivery of that shop would verify at both. Give this tenant's own shop domain.`,
        );
  }

  /** The current secret on its shop, which a rotation keeps verifying, for the index. */
  async #held(tenant: TenantName, source: Source): Promise<SecretOnShop[]> {
    const current = await this.settings.secret(tenant, source);
    const bound = this.pins.binding(source);
    return current === null || bound === null
      ? []
      : [{ fingerprint: await sha256Hex(current), shop: bound.shop }];
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
