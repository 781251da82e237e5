/**
 * @module
 * Step "products": which product each order line is invoiced on. One list call fetches every code
 * the order may need; the missing are created on their VAT class's sales account (which sets the
 * line's VAT). A product on another class's account would change the VAT, so the class's fallback
 * product takes the line. What is found is remembered with its sales account (`RunMemory`).
 */
import type { z } from "zod";
import type { ProductPost } from "../../../shared/v2/masterdata";
import type { LineProducts } from "../invoice-lines";
import type { OrderMapping } from "../../ledger/mapping";
import type { Order, VatClass } from "../order";
import type { KnownProduct } from "../port";
import { expectStatus, isDuplicate, type RunApi } from "../../ledger/run-api";
import { NO_MEMORY, type RunMemory } from "./memory";
import { parseRows, ProductReply } from "../../ledger/replies";

/** What the step found and did. */
export interface ProductChoice {
  products: LineProducts;
  created: string[];
  /** Lines moved to a fallback product, and why. */
  notes: string[];
  /** From earlier runs' answers, no call made; the sales order tells whether they still exist. */
  remembered: boolean;
}

/** What the run posts to `POST /Products`. */
type ProductBody = z.input<typeof ProductPost>;

/** A SKU the API can take in a comma-separated list filter. */
const listable = (sku: string) => !/[,]/.test(sku) && sku.length <= 100;

const CLASS_NAMES: Record<VatClass, string> = {
  "25": "25 %",
  "15": "15 %",
  "12": "12 %",
  zero: "fritatt",
  exempt: "utenfor mva",
};

/** The code each line starts on, and every code worth listing with its name and VAT class. */
function plannedCodes(
  order: Order,
  mapping: OrderMapping,
): { products: LineProducts; wanted: Map<string, { name: string; vat: VatClass }> } {
  const wanted = new Map<string, { name: string; vat: VatClass }>();
  const products: LineProducts = {};
  for (const l of order.lines) {
    const route = mapping.vat[l.vat];
    // Listed with the rest (no extra call), in case a line must fall back to it.
    if (!wanted.has(route.fallbackProduct))
      wanted.set(route.fallbackProduct, { name: `Diverse ${CLASS_NAMES[l.vat]}`, vat: l.vat });
    if (l.kind === "item" && l.sku && listable(l.sku)) {
      products[l.ref] = l.sku;
      if (!wanted.has(l.sku)) wanted.set(l.sku, { name: l.name, vat: l.vat });
    } else {
      const code = l.kind === "shipping" ? route.shippingProduct : route.fallbackProduct;
      products[l.ref] = code;
      wanted.set(code, {
        name:
          l.kind === "shipping" ? `Frakt ${CLASS_NAMES[l.vat]}` : `Diverse ${CLASS_NAMES[l.vat]}`,
        vat: l.vat,
      });
    }
  }
  wanted.set(mapping.roundingProduct, { name: "Øreavrunding", vat: "exempt" });
  return { products, wanted };
}

/** Each line's product given those that exist (code → sales account), noting every fallback. */
function decide(
  order: Order,
  mapping: OrderMapping,
  planned: LineProducts,
  found: Map<string, number | null>,
): { products: LineProducts; notes: string[] } {
  const products = { ...planned };
  const notes: string[] = [];
  for (const l of order.lines) {
    const code = products[l.ref] as string;
    const account = found.get(code);
    const isSku = l.kind === "item" && code === l.sku;
    if (
      found.has(code) &&
      isSku &&
      account != null &&
      account !== mapping.vat[l.vat].salesAccount
    ) {
      products[l.ref] = mapping.vat[l.vat].fallbackProduct;
      notes.push(
        `SKU ${code} is on account ${account}, not ${mapping.vat[l.vat].salesAccount} (${CLASS_NAMES[l.vat]}); invoiced on ${mapping.vat[l.vat].fallbackProduct}.`,
      );
    } else if (!found.has(code) && isSku && mapping.unknownSkus === "fallback") {
      products[l.ref] = mapping.vat[l.vat].fallbackProduct;
      notes.push(`Unknown SKU ${code}; invoiced on ${mapping.vat[l.vat].fallbackProduct}.`);
    }
  }
  return { products, notes };
}

/** What must exist for `products`: every product a line uses, and the rounding one if needed. */
const neededCodes = (products: LineProducts, mapping: OrderMapping, needRounding: boolean) =>
  new Set([...Object.values(products), ...(needRounding ? [mapping.roundingProduct] : [])]);

/**
 * Resolves (and creates where the mapping says so) the products of `order`'s lines: no call when
 * `memory` knows every SKU and every product the lines use, else one list call, remembered.
 */
export async function chooseProducts(
  api: RunApi,
  order: Order,
  mapping: OrderMapping,
  needRounding: boolean,
  memory: RunMemory = NO_MEMORY,
): Promise<ProductChoice> {
  const { products: planned, wanted } = plannedCodes(order, mapping);
  const codes = [...wanted.keys()];
  const known = new Map(
    [...(await memory.products(codes)).values()].map((p) => [p.code, p.salesAccount]),
  );
  const skusKnown = order.lines.every(
    (l) => !(l.kind === "item" && planned[l.ref] === l.sku) || known.has(l.sku),
  );
  const recalled = decide(order, mapping, planned, known);
  if (
    skusKnown &&
    [...neededCodes(recalled.products, mapping, needRounding)].every((c) => known.has(c))
  )
    return { ...recalled, created: [], remembered: true };
  const query = codes.map(encodeURIComponent).join(",");
  const listed = parseRows(
    expectStatus(
      await api.call("GET", `/Products?codes=${query}`),
      "Listing the products",
      200,
      204,
    ),
    ProductReply,
  );
  const found = new Map(listed.map((p) => [p.Code ?? "", p.StandardSalesAccount ?? null]));
  const { products, notes } = decide(order, mapping, planned, found);
  const created: string[] = [];
  const learned: KnownProduct[] = listed.flatMap((p) =>
    p.Code ? [{ code: p.Code, salesAccount: p.StandardSalesAccount ?? null }] : [],
  );
  const accountOf = (code: string, vat: VatClass) =>
    code === mapping.roundingProduct ? mapping.roundingAccount : mapping.vat[vat].salesAccount;
  for (const code of neededCodes(products, mapping, needRounding)) {
    if (found.has(code)) continue;
    const spec = wanted.get(code) ?? { name: code, vat: "exempt" as const };
    const salesAccount = accountOf(code, spec.vat);
    if (
      await createProduct(api, {
        Code: code,
        Name: spec.name.slice(0, 400) || code,
        StandardSalesAccount: salesAccount,
      })
    ) {
      created.push(code);
      learned.push({ code, salesAccount });
    }
  }
  await memory.learn({ products: learned });
  return { products, created, notes, remembered: false };
}

/** Makes sure the rounding product exists (a credit note or the API's own rounding may need it). */
export async function ensureRoundingProduct(api: RunApi, mapping: OrderMapping): Promise<void> {
  const found = parseRows(
    expectStatus(
      await api.call("GET", `/Products?codes=${encodeURIComponent(mapping.roundingProduct)}`),
      "Listing the rounding product",
      200,
      204,
    ),
    ProductReply,
  );
  if (found.length > 0) return;
  await createProduct(api, {
    Code: mapping.roundingProduct,
    Name: "Øreavrunding",
    StandardSalesAccount: mapping.roundingAccount,
  });
}

/** Creates a product; answers whether this call did (a taken code is an earlier attempt's). */
async function createProduct(api: RunApi, body: ProductBody & { Code: string }): Promise<boolean> {
  const reply = await api.call<ProductBody>("POST", "/Products", body);
  if (isDuplicate(reply, "Code")) return false;
  expectStatus(reply, `Creating product ${body.Code}`, 200, 201);
  return true;
}
