/**
 * @module Structured JSON logs, one line per event, at or above the running Worker's `LOG_LEVEL`.
 * Fields named like a secret are redacted first, so a careless call site cannot leak a key.
 */
import { env } from "cloudflare:workers";
import { readConfig, type Config } from "./config";

const SECRET_NAME = /(key|token|secret|authorization|password|cookie)$/i;

type Fields = Record<string, unknown>;

export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK = { debug: 10, info: 20, warn: 30, error: 40, silent: 50 } as const;
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

function threshold(): number {
  const bindings = env as Cloudflare.Env | undefined;
  return RANK[bindings ? readConfig(bindings).logLevel : NO_WORKER_LEVEL];
}

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
 * @example
 * log.warn("v2", { tenant: "demo:acme", status: 503 });
 */
export const log = {
  debug: (event: string, fields: Fields = {}) => write("debug", event, fields),
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
  writes,
};
