/**
 * The gateway's vars and secrets that wrangler.toml does not name, so `wrangler types` cannot see
 * them (scripts/generate-env-types.mjs): optional tuning vars, and a secret set only during a key
 * rotation. Merged into the generated `Env` and into `Cloudflare.Env` (what `cloudflare:workers`
 * exports). Parsed, with their defaults, by `kernel/config.ts`; read them there, not from `env`.
 */
interface GatewayOptionalBindings {
  /** Upstream calls per second per environment; the API's limit (10) when unset. */
  RATE_LIMIT_PER_SECOND?: string;
  /**
   * Share of the limit the governor leaves unused as a jitter margin, 0 ≤ m < 1, for a path with
   * more jitter than the one measured (default `PACING_MARGIN` in `upstream/rate-governor.ts`).
   */
  RATE_PACING_MARGIN?: string;
  /**
   * The events watcher's share of the rate limit over the governor's window, 0 ≤ s ≤ 0.5 (default
   * 0.2: 2 of 10 places); 0 turns polling off (`upstream/rate/watcher-room.ts`). The watcher only
   * ever takes what callers, order runs and assistants leave, up to this share.
   */
  WATCHER_BUDGET_SHARE?: string;
  /**
   * Most rows one `Prefer: pages=all` answer may hold, a whole number ≥ 1; 50 000 when unset
   * (`v2/shaping/all-pages.ts`). A caller may ask for less with `Prefer: max-rows=N`, never more.
   */
  PAGES_ALL_MAX_ROWS?: string;
  /**
   * How long a batch of one tenant's order runs waits for companions before its shared call, ms.
   * Unset: 3 s on an idle key, 30 s while calls queue for permits (`orders/tenant/shared-calls.ts`);
   * a batch closes sooner once complete. The tests set it long: a batch closes only when complete.
   */
  ORDER_BATCH_WAIT_MS?: string;
  /**
   * How long a run under way may stay silent (no step reported) before the alarm asks the Workflow
   * engine about it and, if the engine is not moving it, starts its next attempt, s. Unset: 600.
   * `npm start` sets 60: `wrangler dev` does not resume an instance its crash interrupted.
   */
  RUN_STALL_SECONDS?: string;
  /**
   * How long a delivery's queue message may go without its attempt being reported before the
   * Events object's alarm sends it again, s. Unset: 900. `npm start` sets 120: the local queue
   * loses the messages a crash interrupted.
   */
  EVENT_QUEUE_LEASE_SECONDS?: string;
  /**
   * Operations `/v2` lets through although the catalog does not list them yet, passed on unchanged
   * and unchecked: `METHOD /Path/{param}` separated by commas or new lines, e.g.
   * `GET /NewThing, POST /NewThing/{id}/Action` (`v2/extra-operations.ts`). Unset: none.
   */
  V2_EXTRA_OPERATIONS?: string;
  /**
   * What the request log stores of each call: `calls` (default: a row per call, and the counters),
   * `counters` (the counters only: no call data stored) or `off` (nothing written after a call).
   * Unreadable: `counters` (`kernel/config.ts`).
   */
  REQUEST_LOG?: string;
  /**
   * Hostnames (no scheme, no port) whose browser pages may call the MCP server, separated by
   * commas, beside the gateway's own host and localhost (`assistants/mcp-routes.ts`); e.g.
   * `inspector.example.com`. Unset: only those two. Clients that are not browsers send no Origin
   * and are not affected.
   */
  MCP_ALLOWED_ORIGINS?: string;
  /**
   * The waits between a webhook delivery's attempts, e.g. `5s 5m 30m 2h` (seconds, minutes, hours;
   * 1–12 waits of at most 12 h); `5s 5m 30m 2h 5h 10h 10h` (≈ 27.6 h) when unset or unreadable
   * (`events/schedule.ts`).
   */
  EVENT_RETRY_SCHEDULE?: string;
  /**
   * The watcher's shortest cycle, seconds (docs/events.md, "The watcher"): no tenant is polled more
   * often, however few are watched. 30 when unset or unreadable; `npm start` sets 5, so a change
   * made elsewhere arrives within seconds.
   */
  WATCHER_CYCLE_SECONDS?: string;
  /** `debug`, `info` (default), `warn`, `error` or `silent` (see `kernel/log.ts`). */
  LOG_LEVEL?: string;
  /** The sealing key being rotated out: it still opens, never seals (`kernel/secrets.ts`). */
  SECRETS_KEY_PREVIOUS?: string;
}

// Declaration merging: an empty body that adds the interface above to the generated ones.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface Env extends GatewayOptionalBindings {}

declare namespace Cloudflare {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Env extends GatewayOptionalBindings {}
}
