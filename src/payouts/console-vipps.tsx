/**
 * @module
 * Vipps MobilePay on a tenant's payouts page: whether keys are set and their settings (never the
 * keys), a form to set them, Remove and Read now; the last read and the next; and per ledger what
 * is carried to its next payout and its latest dates: read, open or overdue, the rows, the payouts
 * found (each linked), the balance after and the fees left for Vipps's invoice.
 */
import type { Flash } from "../console/flash";
import { Csrf } from "../console/layout";
import { FormMessage } from "../console/pages/feedback";
import { Table } from "../console/table";
import { when } from "../console/views";
import type { VippsView } from "./vipps/view";

export function VippsSection(p: {
  csrf: string;
  action: string;
  payoutHref: (payoutId: string) => string;
  vipps: VippsView;
  flash: Flash | undefined;
}) {
  const { keys, lastRead } = p.vipps;
  const s = keys.settings;
  return (
    <section aria-labelledby="vipps">
      <h2 id="vipps">Vipps MobilePay</h2>
      <FormMessage flash={p.flash} at="vipps" />
      <p>
        {keys.set && s && keys.setAt
          ? `Keys of sales unit ${s.merchantSerialNumber} are set, since ${when(keys.setAt)}: its references name ${s.orderSource} orders${s.referencePrefix ? ` after "${s.referencePrefix}"` : ""}, read from ${s.since}. They are not shown again.`
          : "No Vipps keys are set: Vipps settlements are not read."}
      </p>
      <p class="muted">
        Each closed ledger date is read once, its payouts booked as one voucher each that equals the
        deposit. Dates are read up to yesterday, every six hours; one not closed yet, hourly.
      </p>
      {lastRead ? (
        <p>
          {`Last read ${when(lastRead.at)}: ${lastRead.datesRead} dates, ${lastRead.payoutsFound} payouts found, ${lastRead.calls} calls to Vipps.`}
          {lastRead.error ? <strong>{` Stopped: ${lastRead.error}`}</strong> : null}
          {p.vipps.nextReadAt ? ` Next read ${when(p.vipps.nextReadAt)}.` : null}
        </p>
      ) : null}
      {keys.set ? (
        <form method="post" action={`${p.action}/read`}>
          <Csrf token={p.csrf} />
          <button type="submit">Read Vipps now</button>
        </form>
      ) : null}
      {p.vipps.ledgers.map((l) => (
        <>
          <h3>{`Ledger ${l.ledgerId} (${l.currency})`}</h3>
          <p>
            {`Next date to read: ${l.nextDate}. Carried to the next payout: ${l.carried.rows} rows, ${l.carried.amount} ${l.currency}${l.carried.dates.length > 0 ? ` (${l.carried.dates.join(", ")})` : ""}.`}
          </p>
          <Table
            columns={[
              "Date",
              "State",
              "Tries",
              "Rows",
              "Payouts",
              "Balance after",
              "Fees to be invoiced",
              "Unknown rows",
            ]}
            rows={l.dates.map((d) => [
              d.date,
              d.state,
              String(d.tries),
              String(d.fundsRows),
              d.payouts.length === 0 ? (
                "–"
              ) : (
                <>
                  {d.payouts.map((id) => (
                    <a href={p.payoutHref(id)}>{id}</a>
                  ))}
                </>
              ),
              d.balanceAfter === null ? "–" : `${d.balanceAfter} ${l.currency}`,
              d.feesInvoiced === "0.00" ? "–" : `${d.feesInvoiced} ${l.currency}`,
              d.unknown === 0 ? "–" : String(d.unknown),
            ])}
          />
        </>
      ))}
      <form method="post" action={p.action}>
        <Csrf token={p.csrf} />
        <label for="vipps-client-id">client_id</label>
        <input id="vipps-client-id" name="clientId" autocomplete="off" required maxlength={200} />
        <label for="vipps-client-secret">client_secret</label>
        <input
          id="vipps-client-secret"
          name="clientSecret"
          type="password"
          autocomplete="off"
          required
          maxlength={500}
        />
        <label for="vipps-subscription-key">Ocp-Apim-Subscription-Key</label>
        <input
          id="vipps-subscription-key"
          name="subscriptionKey"
          type="password"
          autocomplete="off"
          required
          maxlength={200}
        />
        <label for="vipps-msn">Merchant serial number</label>
        <input
          id="vipps-msn"
          name="merchantSerialNumber"
          inputmode="numeric"
          required
          maxlength={10}
          value={s?.merchantSerialNumber ?? ""}
        />
        <label for="vipps-orders">Whose orders its references name</label>
        <select id="vipps-orders" name="orderSource">
          {(["woocommerce", "shopify", "standard"] as const).map((o) => (
            <option value={o} selected={s?.orderSource === o}>
              {o}
            </option>
          ))}
        </select>
        <label for="vipps-prefix">Reference prefix before the order id (may be empty)</label>
        <input
          id="vipps-prefix"
          name="referencePrefix"
          maxlength={40}
          value={s?.referencePrefix ?? ""}
        />
        <label for="vipps-since">First date to read (empty: today)</label>
        <input id="vipps-since" name="since" type="date" />
        <button type="submit">{keys.set ? "Replace the Vipps keys" : "Save Vipps keys"}</button>
      </form>
      {keys.set ? (
        <form method="post" action={`${p.action}/remove`}>
          <Csrf token={p.csrf} />
          <button type="submit">Remove the Vipps keys</button>
        </form>
      ) : null}
    </section>
  );
}
