/**
 * @module
 * Structured JSON logs, one line per event. Fields whose names suggest a secret are redacted before
 * anything is written, so a careless call site cannot leak a key.
 *
 * The `LOG_LEVEL` var (`debug`, `info`, `warn`, `error` or `silent`; `info` when unset or unknown)
 * sets the least severe level written. It is looked up at every call in the running Worker's
 * configuration (`kernel/config.ts`, parsed once), so one deployment (or one test project) can turn
 * the volume down without code changes.
 */
import { env } from "cloudflare:workers";
import { readConfig, type Config } from "./config";

const SECRET_NAME = /(key|token|secret|authorization|password|cookie)$/i;

type Fields = Record<string, unknown>;

/** A level a line can be written at. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Severity order; `silent` ranks above every level, so nothing is written. */
const RANK = { debug: 10, info: 20, warn: 30, error: 40, silent: 50 } as const;
/** The level outside a Worker, where there is no configuration (scripts that import this module). */
const NO_WORKER_LEVEL: Config["logLevel"] = "info";

/** A copy of `fields` with secret-looking values replaced by "[redacted]" (nested objects too). */
export function redact(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (SECRET_NAME.test(k) && v !== undefined && v !== null) out[k] = "[redacted]";
    else if (v && typeof v === "object" && !Array.isArray(v)) out[k] = redact(v as Fields);
    else out[k] = v;
  }
  return out;
}

/** The configured threshold. */
function threshold(): number {
  const bindings = env as Cloudflare.Env | undefined;
  return RANK[bindings ? readConfig(bindings).logLevel : NO_WORKER_LEVEL];
}

/** Whether a line at `level` would be written now. */
function writes(level: LogLevel): boolean {
  return RANK[level] >= threshold();
}

function write(level: LogLevel, event: string, fields: Fields): void {
  if (!writes(level)) return;
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...redact(fields) });
  // The Workers runtime ships console output to Logs/Tail; it is the logging API there.
  /* eslint-disable no-console */
  const sink =
    level === "error"
      ? console.error
      : level === "warn"
        ? console.warn
        : level === "debug"
          ? console.debug
          : console.log;
  /* eslint-enable no-console */
  sink(line);
}

/**
 * The gateway's logger: one method per level, each taking an event name and redactable fields.
 *
 * @example
 * log.warn("v2", { tenant: "demo:acme", status: 503 });
 */
export const log = {
  debug: (event: string, fields: Fields = {}) => write("debug", event, fields),
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
  /** Whether a line at `level` would be written: to skip gathering one that would not be. */
  writes,
};
