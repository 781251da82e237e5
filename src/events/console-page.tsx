/**
 * @module
 * A tenant's events page: each endpoint (never its secret) with its recent attempts, redelivery,
 * replay and re-enabling, and the watcher. Nothing on it is secret.
 */
import type { Flash } from "../console/flash";
import { tenantPath, when } from "../console/views";
import type { Environment } from "../kernel/config";
import type { AttemptView, EndpointView } from "./types";
import type { WatcherView } from "./watcher/view";
import { Csrf, Layout } from "../console/layout";
import { Table } from "../console/table";
import { FormMessage } from "../console/pages/feedback";
import { WatcherSection } from "./watcher/console-page";

export interface EventsPageProps {
  csrf: string;
  tenant: string;
  environment: Environment;
  client: string;
  endpoints: (EndpointView & { attempts: AttemptView[] })[];
  watcher: WatcherView;
  flash?: Flash | undefined;
}

export function EventsPage(p: EventsPageProps) {
  const path = (rest: string) => tenantPath(p.environment, p.client, rest);
  return (
    <Layout title={`Events of ${p.tenant}`} csrf={p.csrf}>
      <h1 id="events">Events</h1>
      <p class="muted">
        Webhook endpoints of <a href={path("")}>{p.tenant}</a>: what changes in its books and every
        order run, signed (Standard Webhooks). Times are UTC.
      </p>
      <FormMessage flash={p.flash} at="events" />
      {p.endpoints.length === 0 ? (
        <p>No endpoints yet. The tenant adds them with its gateway key (POST /events/endpoints).</p>
      ) : null}
      {p.endpoints.map((e) => (
        <section id={e.id}>
          <h2>{e.url}</h2>
          <p class="muted">{`${e.id} · ${e.types.join(", ")}${e.maxPerSecond ? ` · at most ${e.maxPerSecond} a second` : ""}${e.ordered ? " · ordered" : ""}${e.description ? ` · ${e.description}` : ""}`}</p>
          {e.state === "disabled" ? (
            <div class="error" role="alert">
              <p>{`${e.disabledReason ?? "Disabled."} (${when(e.disabledAt)})`}</p>
              <form method="post" action={path(`/events/endpoints/${e.id}/enable`)}>
                <Csrf token={p.csrf} />
                <button type="submit">Enable again</button>
              </form>
            </div>
          ) : e.failingSince ? (
            <p class="error-text">{`Failing since ${when(e.failingSince)}.`}</p>
          ) : null}
          {e.held ? (
            <p class={e.failingSince ? "error-text" : "muted"}>
              {`${e.held.waiting} ${e.held.waiting === 1 ? "delivery waits" : "deliveries wait"} behind ${e.held.by} since ${when(e.held.since)}.`}
            </p>
          ) : null}
          {e.attempts.length === 0 ? (
            <p>No deliveries yet.</p>
          ) : (
            <Table
              columns={["Time", "Event", "Attempt", "Answer", "Took", "Delivery", ""]}
              rows={e.attempts.map((a) => [
                when(a.at),
                `${a.type} ${a.eventId}`,
                `${a.attempt} (${a.trigger})`,
                a.ok ? (
                  String(a.status)
                ) : (
                  <span class="error-text">{a.error ?? String(a.status)}</span>
                ),
                `${a.durationMs} ms`,
                a.deliveryState,
                // A test event is in no log: there is nothing to deliver again.
                a.ok || a.trigger === "test" ? (
                  ""
                ) : (
                  <form method="post" action={path(`/events/${a.eventId}/redeliver`)}>
                    <Csrf token={p.csrf} />
                    <input type="hidden" name="endpoint" value={e.id} />
                    <button type="submit">Redeliver</button>
                  </form>
                ),
              ])}
            />
          )}
          <form method="post" action={path(`/events/endpoints/${e.id}/test`)}>
            <Csrf token={p.csrf} />
            <button type="submit">Send a test event</button>
          </form>
          <form method="post" action={path(`/events/endpoints/${e.id}/replay`)}>
            <Csrf token={p.csrf} />
            <label for={`since-${e.id}`}>Replay events recorded since (UTC)</label>
            <input type="datetime-local" id={`since-${e.id}`} name="since" required />
            <label for={`until-${e.id}`}>until (UTC, empty: now)</label>
            <input type="datetime-local" id={`until-${e.id}`} name="until" />
            <button type="submit">Replay</button>
          </form>
        </section>
      ))}
      <WatcherSection watcher={p.watcher} />
    </Layout>
  );
}
