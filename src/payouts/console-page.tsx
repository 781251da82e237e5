/**
 * @module
 * A tenant's payouts: the accounts its settlements and payouts post to (each present in the
 * client's chart, or with a button that creates it), why to settle to clearing accounts while it
 * settles to one account, what each clearing account holds and what of it is due, the payouts by
 * state, and the orders in no payout yet; and one payout
 * with its lines by kind, what keeps it from matching, its voucher, its steps and a Retry button;
 * for one held because it pays out no order, a Confirm and book button, the operator's alone.
 */
import type { Flash } from "../console/flash";
import { orderPath, tenantPath, when } from "../console/views";
import type { AccountCheck } from "./accounts";
import { PayoutState } from "./records";
import { confirmable } from "./rules";
import type { PayoutView, UnpaidOrder } from "./view";
import { Csrf, Layout } from "../console/layout";
import { Table } from "../console/table";
import type { StripeKeyStatus } from "./tenant/stripe-key";
import type { Holdings } from "./tenant/payout-book";
import { formatMinor } from "../ledger/money";
import { FormMessage } from "../console/pages/feedback";
import { Steps } from "../ledger/console-steps";
import { StripeKeySection } from "./console-stripe-key";
import { VippsSection } from "./console-vipps";
import type { VippsView } from "./vipps/view";
import { FailedAt, ListByState, RetryForm, RunFrame } from "../console/tenant-kit";
import type { TenantOwner } from "../console/tenant-kit";

/** The console's path of one payout. */
export const payoutPath = (
  o: Pick<TenantOwner, "environment" | "client">,
  p: Pick<PayoutView, "source" | "payoutId">,
) => tenantPath(o.environment, o.client, `/payouts/${p.source}/${encodeURIComponent(p.payoutId)}`);

/** The payouts page. */
export function PayoutsPage(
  p: TenantOwner & {
    payouts: PayoutView[];
    state: PayoutState | null;
    accounts: AccountCheck[];
    settlesToOneAccount: number | null;
    unpaid: { afterDays: number; orders: UnpaidOrder[] };
    held: Holdings;
    stripeKey: StripeKeyStatus;
    vipps: VippsView;
    flash?: Flash | undefined;
  },
) {
  const base = tenantPath(p.environment, p.client, "/payouts");
  return (
    <Layout title={`Payouts of ${p.tenant}`} csrf={p.csrf}>
      <h1>Payouts</h1>
      <p class="muted">
        Payouts of <a href={tenantPath(p.environment, p.client)}>{p.tenant}</a>: each one voucher
        that equals the bank deposit, or what keeps it from matching.
      </p>
      {p.settlesToOneAccount !== null ? (
        <p class="notice" role="note">
          {`Paid orders settle to account ${p.settlesToOneAccount}, one account for every source. When that is the bank, the books show card and wallet payments there on the day of sale, but the provider pays them out days later as one deposit less its fees, so the bank account never matches the statement. Empty the order mapping's settlement account to settle each order to its clearing account, and each payout is booked as one voucher that equals the deposit.`}
        </p>
      ) : null}
      <h2 id="accounts">Accounts</h2>
      <FormMessage flash={p.flash} at="accounts" />
      <Table
        columns={["What for", "Account", "In the chart"]}
        rows={p.accounts.map((a) => [
          a.role,
          String(a.accountNo),
          a.present === true ? (
            "yes"
          ) : a.present === null ? (
            "not seen (the chart has more than one page)"
          ) : (
            <form method="post" action={`${base}/accounts`}>
              <Csrf token={p.csrf} />
              <input type="hidden" name="accountNo" value={String(a.accountNo)} />
              <button type="submit">{`Create ${a.accountNo} ${a.name}`}</button>
            </form>
          ),
        ])}
      />
      <h2 id="clearing">What the clearing accounts hold</h2>
      <p>{`Orders settled to each clearing account that no payout has paid out yet, by ledgergate's records (refunds not counted); due: settled more than ${p.held.afterDays} days ago.`}</p>
      {p.held.accounts.length === 0 ? (
        <p>Nothing.</p>
      ) : (
        <Table
          columns={["Account", "Whose", "Awaiting payout", "Due"]}
          rows={p.held.accounts.map((h) => [
            String(h.accountNo),
            h.provider ?? "settled before providers were told apart",
            `${h.orders} orders, ${formatMinor(h.total)} ${h.currency ?? ""}`,
            h.dueOrders === 0
              ? "–"
              : `${h.dueOrders} orders, ${formatMinor(h.dueTotal)} ${h.currency ?? ""}`,
          ])}
        />
      )}
      <StripeKeySection
        csrf={p.csrf}
        action={`${base}/stripe-key`}
        status={p.stripeKey}
        flash={p.flash}
      />
      <VippsSection
        csrf={p.csrf}
        action={`${base}/vipps`}
        payoutHref={(payoutId) => payoutPath(p, { source: "vipps", payoutId })}
        vipps={p.vipps}
        flash={p.flash}
      />
      <h2 id="list">Payouts</h2>
      <ListByState
        filter={{ base, states: PayoutState.options, current: p.state }}
        what="payouts"
        columns={["Payout", "Provider", "State", "Deposit", "Arrives", "Issues", "Voucher"]}
        rows={p.payouts.map((x) => [
          <a href={payoutPath(p, x)}>{x.payoutId}</a>,
          x.provider,
          x.state,
          `${x.amount} ${x.currency}`,
          x.arrivalDate,
          x.issueCount === 0 ? "–" : String(x.issueCount),
          x.voucher?.number == null ? "–" : String(x.voucher.number),
        ])}
      />
      <h2 id="unpaid">Orders in no payout</h2>
      <p>{`Orders settled to a clearing account more than ${p.unpaid.afterDays} days ago that no payout has paid out.`}</p>
      {p.unpaid.orders.length === 0 ? (
        <p>None.</p>
      ) : (
        <Table
          columns={["Order", "Number", "Total", "Account", "Settled"]}
          rows={p.unpaid.orders.map((o) => [
            <a href={orderPath(p.environment, p.client, o.source, o.orderId)}>{o.orderId}</a>,
            o.number ?? "–",
            o.total ? `${o.total} ${o.currency ?? ""}` : "–",
            String(o.settledTo),
            o.settledOn,
          ])}
        />
      )}
    </Layout>
  );
}

/** One payout's page. */
export function PayoutPage(p: TenantOwner & { payout: PayoutView }) {
  const x = p.payout;
  const retryable =
    !x.failed && (x.state === "unmatched" || x.state === "failed" || x.state === "needs-key");
  const underWay = ["received", "running", "reversing"].includes(x.state);
  return (
    <RunFrame
      owner={p}
      title={`Payout ${x.payoutId}`}
      back={{ rest: "/payouts", text: "Payouts" }}
      underWay={underWay}
    >
      <dl>
        <dt>State</dt>
        <dd>{underWay ? `${x.state} (this page refreshes itself)` : x.state}</dd>
        <dt>Provider</dt>
        <dd>{x.provider}</dd>
        <dt>Deposit</dt>
        <dd>{`${x.amount} ${x.currency}, arriving ${x.arrivalDate}`}</dd>
        <dt>Voucher</dt>
        <dd>
          {x.voucher
            ? `${x.voucher.number ?? "not posted yet"} (reference ${x.voucher.reference}, bank account ${x.voucher.bankAccount})`
            : "–"}
        </dd>
        <dt>Failed at the provider</dt>
        <dd>
          {x.failed ? `${when(x.failed.at)}${x.failed.reason ? `: ${x.failed.reason}` : ""}` : "–"}
        </dd>
        {x.stripe ? (
          <>
            <dt>Read from Stripe</dt>
            <dd>
              {x.stripe.notItemised
                ? `No: ${x.stripe.notItemised}`
                : x.stripe.transactionsRead === null
                  ? `Not yet (Stripe's ledger ${x.stripe.reconciliationStatus})`
                  : `${x.stripe.transactionsRead} balance transactions`}
            </dd>
            {x.stripe.clearing ? (
              <>
                <dt>Clearing account instead</dt>
                <dd>{`${x.stripe.clearing.accountNo}: ${x.stripe.clearing.balance} ${x.stripe.clearing.currency} on ${x.stripe.clearing.asOf}`}</dd>
              </>
            ) : null}
          </>
        ) : null}
        {x.vipps ? (
          <>
            <dt>Read from Vipps</dt>
            <dd>{`Ledger ${x.vipps.ledgerId}, dates ${x.vipps.dates.join(", ")}; the balance its date began with ${x.vipps.carriedIn} ${x.currency}`}</dd>
            <dt>Fees left for Vipps's invoice</dt>
            <dd>
              {x.vipps.feesInvoiced === "0.00"
                ? "none (net settlement)"
                : `${x.vipps.feesInvoiced} ${x.currency} (gross settlement: not booked here)`}
            </dd>
          </>
        ) : null}
        {x.confirmedBy ? (
          <>
            <dt>Confirmed without orders</dt>
            <dd>{`by the ${x.confirmedBy}, ${when(x.confirmedAt)}`}</dd>
          </>
        ) : null}
        <dt>Attempt</dt>
        <dd>{x.attempt}</dd>
        <dt>Updated</dt>
        <dd>{when(x.updatedAt)}</dd>
      </dl>
      <FailedAt error={x.error} />
      {retryable ? <RetryForm csrf={p.csrf} action={`${payoutPath(p, x)}/retry`} /> : null}
      {confirmable(x) ? (
        <form method="post" action={`${payoutPath(p, x)}/confirm`}>
          <p class="notice" role="note">
            {`No line of this payout is a charge or refund, so nothing shows which sales it pays out, and whoever holds the tenant's signing secret could have sent it. Confirm only if the bank statement shows this deposit of ${x.amount} ${x.currency}: it is then booked as one voucher, its bank line the deposit, its other lines on the mapping's accounts.`}
          </p>
          <Csrf token={p.csrf} />
          <button type="submit">Confirm and book</button>
        </form>
      ) : null}
      <h2>Lines</h2>
      <Table
        columns={["Kind", "Lines", "Amount", "Fees"]}
        rows={Object.entries(x.lines).map(([kind, s]) => [kind, String(s.lines), s.amount, s.fee])}
      />
      <h2>What does not match</h2>
      {x.issueCount === 0 ? (
        <p>Nothing.</p>
      ) : (
        <>
          <Table
            columns={["Line", "Order", "Refund", "Why"]}
            rows={x.issues.map((i) => [
              i.line === null ? "the payout" : String(i.line),
              i.orderId ?? "–",
              i.refundId ?? "–",
              i.detail,
            ])}
          />
          {x.issueCount > x.issues.length ? (
            <p>{`And ${x.issueCount - x.issues.length} more.`}</p>
          ) : null}
        </>
      )}
      <h2>Steps</h2>
      <Steps steps={x.steps} attempt={x.attempt} failed={x.error} />
    </RunFrame>
  );
}
