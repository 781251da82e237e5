/**
 * @module
 * The console's events page and its forms, the session standing where the operator's token does;
 * each form answers a 303 to the page, its message in the flash.
 */
import type { Context } from "hono";
import type { ConsoleApp } from "../console/app";
import { tenantPath } from "../console/views";
import { fail, unwrap, type Outcome } from "../kernel/outcome";
import { tenantEvents } from "./admin-routes";
import { endpointsAndWatcher } from "./watcher/listing";
import {
  enableEndpoint,
  eventsPage,
  redeliverEvent,
  replayEvents,
  testEndpoint,
} from "./console-contract";
import { seeWith, takeFlash } from "../console/flash-redirect";
import { EventsPage } from "./console-page";
import { html } from "../console/render";
import { tenantOwner, type TenantParams } from "../console/tenant-kit";
import type { ConsoleRouter } from "../console/router";

/** Attempts shown per endpoint on the page. */
const RECENT_ATTEMPTS = 10;

/** The 303 back to the page, saying what `done` came to. */
function back(
  c: Context<ConsoleApp>,
  p: TenantParams,
  done: Outcome<{ queued: number } | unknown>,
  what: string,
) {
  const path = tenantPath(p.environment, p.client, "/events");
  if (!done.ok) return seeWith(c, path, { at: "events", error: done.error.detail });
  const queued = (done.value as { queued?: number }).queued;
  return seeWith(c, path, {
    at: "events",
    notice:
      queued === undefined
        ? what
        : `${what}: ${queued} ${queued === 1 ? "delivery" : "deliveries"} queued.`,
  });
}

export function eventRoutes(router: ConsoleRouter) {
  return router
    .openapi(eventsPage, async (c) => {
      const p = c.req.valid("param");
      const events = await tenantEvents(c, p);
      const owner = tenantOwner(c, p);
      const { endpoints, watcher } = await endpointsAndWatcher(c.env, owner.tenant);
      const recent = await Promise.all(
        endpoints.map(async (e) => unwrap(await events.deliveries(e.id, RECENT_ATTEMPTS))),
      );
      return html(
        c,
        <EventsPage
          {...owner}
          endpoints={endpoints.map((e, i) => ({ ...e, attempts: recent[i] ?? [] }))}
          watcher={watcher}
          flash={(await takeFlash(c)) ?? undefined}
        />,
      );
    })
    .openapi(replayEvents, async (c) => {
      const p = c.req.valid("param");
      const f = c.req.valid("form");
      const since = Date.parse(`${f.since}Z`);
      const until = f.until ? Date.parse(`${f.until}Z`) : Date.now() + 1;
      const events = await tenantEvents(c, p);
      return back(c, p, await events.replay(p.id, since, until), "Replay");
    })
    .openapi(redeliverEvent, async (c) => {
      const p = c.req.valid("param");
      const events = await tenantEvents(c, p);
      return back(
        c,
        p,
        await events.redeliver(p.eventId, c.req.valid("form").endpoint),
        "Redelivery",
      );
    })
    .openapi(testEndpoint, async (c) => {
      const p = c.req.valid("param");
      const tested = await (await tenantEvents(c, p)).sendTest(p.id);
      if (!tested.ok) return back(c, p, tested, "");
      const t = tested.value;
      return t.ok
        ? back(c, p, tested, `Test event delivered: the receiver answered ${t.status}.`)
        : back(c, p, fail("conflict", `The test event failed: ${t.error ?? "no answer"}.`), "");
    })
    .openapi(enableEndpoint, async (c) => {
      const p = c.req.valid("param");
      const events = await tenantEvents(c, p);
      return back(
        c,
        p,
        await events.updateEndpoint(p.id, { enabled: true }),
        "Enabled again; replay what it missed below.",
      );
    });
}
