// The tests' corpus of shop orders (test/fixtures/orders/), for the soak's Shopify and WooCommerce
// shops: their `orders/paid` and `order.updated` bodies as each shop serializes them, their
// cancellations, and each shop's signature, built from the fixtures' TypeScript by esbuild in
// memory, so the bench sends what the tests send. Not a test: it asserts nothing.
import { build } from "esbuild";
import { root } from "../scripts/wrangler-env.mjs";

const ENTRY = `
export { corpus as shopifyCorpus, shopifyCancelled } from "./test/fixtures/orders/shopify";
export { corpus as wooCorpus, wooCancelled } from "./test/fixtures/orders/woocommerce";
export { signShopify, signWooCommerce } from "./test/fixtures/orders/sign";
`;

/** The fixtures' builders and signers, bundled once. */
export async function shopCorpus() {
  const out = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    logLevel: "silent",
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}
