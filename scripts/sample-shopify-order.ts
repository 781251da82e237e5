/**
 * @module
 * A sample Shopify `orders/paid` delivery, used by `npm run demo:order` (scripts/demo-order.mjs)
 * and the browser tests (test/browser/): a company buyer, two lines at 25 % and 15 %, shipping, VAT
 * included, NOK 3 509.50, signed as Shopify signs (base64 HMAC-SHA256 of the raw body under the
 * secret's UTF-8 bytes). Plain TypeScript that Node 24 runs as is (type stripping).
 */
import { createHmac, randomUUID } from "node:crypto";

/** Shop-local time: Oslo, winter. */
const oslo = (d: Date): string =>
  `${new Date(d.getTime() + 3_600_000).toISOString().slice(0, 19)}+01:00`;

/**
 * The delivery of order `orderId` from the shop `shopDomain`, signed with `secret`: headers and the
 * exact body.
 */
export function signedShopifyOrder(
  orderId: string,
  secret: string,
  shopDomain: string,
): { headers: Record<string, string>; body: string } {
  const now = new Date();
  const tax = (rate: number, price: string) => [{ price, rate, title: "MVA" }];
  const address = {
    first_name: "Kari",
    last_name: "Nordmann",
    company: "Nordlys Interiør AS",
    address1: "Storgata 14",
    address2: null,
    zip: "0184",
    city: "Oslo",
    country: "Norway",
    country_code: "NO",
    phone: "+47 22 12 34 56",
  };
  // The id goes in as a number literal, as Shopify writes it (it is above 2^53: no JS number holds
  // it).
  const order = {
    id: "__ID__",
    name: `#${orderId.slice(-5)}`,
    test: false,
    financial_status: "paid",
    created_at: oslo(new Date(now.getTime() - 90_000)),
    processed_at: oslo(new Date(now.getTime() - 90_000)),
    updated_at: oslo(now),
    currency: "NOK",
    taxes_included: true,
    total_price: "3509.50",
    total_tax: "641.90",
    email: "innkjop@nordlys-interior.no",
    customer: {
      id: 7_000_004_471,
      email: "innkjop@nordlys-interior.no",
      first_name: "Kari",
      last_name: "Nordmann",
      phone: "+47 22 12 34 56",
    },
    billing_address: address,
    shipping_address: address,
    note_attributes: [{ name: "Org.nr", value: "926 483 013" }],
    line_items: [
      {
        id: 13_500_000_000_001,
        sku: "PLEDD-ROROS",
        name: "Ullpledd, Røros Tweed, 150 × 200 cm",
        title: "Ullpledd, Røros Tweed",
        quantity: 2,
        price: "1249.00",
        tax_lines: tax(0.25, "499.60"),
        discount_allocations: [],
      },
      {
        id: 13_500_000_000_002,
        sku: "KAFFE-1KG",
        name: "Kaffe, hele bønner, 1 kg",
        title: "Kaffe, hele bønner",
        quantity: 3,
        price: "287.50",
        tax_lines: tax(0.15, "112.50"),
        discount_allocations: [],
      },
    ],
    shipping_lines: [
      {
        id: 4_700_000_000_001,
        title: "Bring, Pakke til bedrift",
        price: "149.00",
        discounted_price: "149.00",
        tax_lines: tax(0.25, "29.80"),
        discount_allocations: [],
      },
    ],
  };
  const body = JSON.stringify(order).replace('"__ID__"', orderId);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "X-Shopify-Topic": "orders/paid",
      "X-Shopify-Hmac-Sha256": createHmac("sha256", secret).update(body).digest("base64"),
      "X-Shopify-Shop-Domain": shopDomain,
      "X-Shopify-API-Version": "2026-01",
      "X-Shopify-Event-Id": randomUUID(),
      "X-Shopify-Webhook-Id": randomUUID(),
      "X-Shopify-Triggered-At": now.toISOString(),
    },
  };
}
