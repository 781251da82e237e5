/**
 * @module
 * Structured JSON logs, one line per event. Fields whose names suggest a secret are redacted before
 * anything is written, so a careless call site cannot leak a key.
 */

const SECRET_NAME = /(key|token|secret|authorization|password|cookie)$/i;

type Fields = Record<string, unknown>;

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

function write(level: "info" | "warn" | "error", event: string, fields: Fields): void {
  const line = JSON.stringify({ level, event, time: new Date().toISOString(), ...redact(fields) });
  // The Workers runtime ships console output to Logs/Tail; it is the logging API there.
  // eslint-disable-next-line no-console
  (level === "error" ? console.error : level === "warn" ? console.warn : console.log)(line);
}

/** The gateway's logger. */
export const log = {
  info: (event: string, fields: Fields = {}) => write("info", event, fields),
  warn: (event: string, fields: Fields = {}) => write("warn", event, fields),
  error: (event: string, fields: Fields = {}) => write("error", event, fields),
};
