/**
 * @module
 * The tenant page's webhook status: for each source whether a secret is set and since when (never
 * the secret), its bound shop, and the last accepted and the last refused delivery with its reason.
 */
import { when } from "../console/views";
import type { WebhookStatus } from "./tenant/webhook-status";
import { Table } from "../console/table";

/** The status table, one row per source. */
export function WebhookStatusSection(p: { sources: WebhookStatus[] }) {
  return (
    <section aria-labelledby="webhook-status">
      <h3 id="webhook-status">Deliveries</h3>
      <Table
        columns={["Source", "Secret", "Shop", "Last accepted", "Last refused"]}
        rows={p.sources.map((s) => [
          s.source,
          s.secret.set
            ? `set ${s.secret.setAt ? when(s.secret.setAt) : "(time unknown)"}`
            : "not set",
          s.shop ? `${s.shop.domain} (${s.shop.boundBy})` : "–",
          s.lastAccepted ? when(s.lastAccepted.at) : "–",
          s.lastRefused
            ? `${when(s.lastRefused.at)}: ${s.lastRefused.reason} (${s.lastRefused.count} so far)`
            : "–",
        ])}
      />
    </section>
  );
}
