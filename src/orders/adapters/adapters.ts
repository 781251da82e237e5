/**
 * @module
 * The adapter of each shop source, by name: the webhook route picks one from its `{source}` path
 * segment, so a source without an entry here cannot be addressed at all.
 */
import type { Source } from "../order";
import { shopify } from "./shopify";
import { standard } from "./standard";
import { stripe } from "./stripe";
import type { SourceAdapter } from "./source";
import { woocommerce } from "./woocommerce";

/** Every source's adapter. */
export const ADAPTERS: Record<Source, SourceAdapter> = { shopify, woocommerce, stripe, standard };
