/**
 * The gateway's own answers, checked against what `/openapi.json` declares for their route and
 * status. `gw()` runs every JSON answer of the gateway's own routes through `expectDeclared`, so
 * each route test also proves the document: a field the answer has and the schema lacks, a
 * declared field it lacks, a wrong type, or a status the route does not declare fails the test.
 *
 * Objects are read as closed whatever the schema says: a key outside `properties` is a mismatch
 * even where the schema leaves `additionalProperties` open (a `looseObject`), because the typed
 * client cannot see it. An object schema without `properties` is a map: its values are checked
 * against `additionalProperties` when that is a schema.
 */
import { expect } from "vitest";
import app from "../../src/index";
import { gatewayDocument } from "../../src/kernel/openapi/gateway-document";

/** A JSON Schema as the document holds it. */
export type Schema = { [keyword: string]: unknown };
type Responses = Record<string, { content?: Record<string, { schema?: Schema }> }>;
type Operation = { operationId: string; responses: Responses };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

let built: Document | null = null;
/** The document `/openapi.json` serves, built once per test file from the same app. */
function doc(): Document {
  return (built ??= gatewayDocument(app, "test") as unknown as Document);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const asSchemas = (v: unknown): Schema[] => (Array.isArray(v) ? v.filter(isObject) : []);

function resolve(s: Schema): Schema {
  const ref = s.$ref;
  if (typeof ref !== "string") return s;
  const target = doc().components.schemas[ref.replace("#/components/schemas/", "")];
  if (!target) throw new Error(`unresolved ${ref}`);
  return resolve(target);
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  integer: (v) => Number.isInteger(v),
  array: Array.isArray,
  object: isObject,
};

/** `allOf` as one object schema: the branches' properties and required fields together. */
function merged(s: Schema): Schema {
  if (!Array.isArray(s.allOf)) return s;
  const parts = [s, ...asSchemas(s.allOf).map(resolve)];
  return {
    ...s,
    properties: Object.assign({}, ...parts.map((p) => p.properties)) as unknown,
    required: parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])),
  };
}

/**
 * Where `value` departs from `schema`, one line each (empty: it conforms); `at` names the place.
 *
 * @example mismatches({ ok: true, extra: 1 }, healthSchema) // ["$.extra: not declared", …]
 */
export function mismatches(value: unknown, schema: Schema, at = "$"): string[] {
  const s = merged(resolve(schema));
  const alternatives = [...asSchemas(s.anyOf), ...asSchemas(s.oneOf)];
  if (alternatives.length) {
    const tries = alternatives.map((a) => mismatches(value, a, at));
    if (tries.some((t) => t.length === 0)) return [];
    return [`${at}: matches no alternative (${tries.map((t) => t[0]).join(" | ")})`];
  }
  if ("const" in s && value !== s.const) return [`${at}: is not ${JSON.stringify(s.const)}`];
  if (Array.isArray(s.enum) && !s.enum.includes(value))
    return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`];
  const types = (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []) as string[];
  if (types.length && !types.some((t) => TYPE_CHECKS[t]?.(value)))
    return [`${at}: ${JSON.stringify(value)} is not ${types.join(" or ")}`];
  if (Array.isArray(value) && isObject(s.items))
    return value.flatMap((item, i) => mismatches(item, s.items as Schema, `${at}[${i}]`));
  if (!isObject(value)) return [];
  const props = isObject(s.properties) ? s.properties : null;
  const extra = isObject(s.additionalProperties) && Object.keys(s.additionalProperties).length;
  const out: string[] = [];
  for (const key of Array.isArray(s.required) ? (s.required as string[]) : [])
    if (!(key in value)) out.push(`${at}.${key}: missing (required)`);
  for (const [key, v] of Object.entries(value)) {
    const declared = props?.[key];
    if (isObject(declared)) out.push(...mismatches(v, declared, `${at}.${key}`));
    else if (extra) out.push(...mismatches(v, s.additionalProperties as Schema, `${at}.${key}`));
    else if (props) out.push(`${at}.${key}: not declared`);
  }
  return out;
}

/** The declared operation of `method` on `pathname`, with its path template, or null. */
export function declaredOperation(
  method: string,
  pathname: string,
): { template: string; operation: Operation } | null {
  const found = Object.entries(doc().paths)
    .filter(([template]) => {
      const literal = template
        .split(/\{[^}]+\}/)
        .map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
      return new RegExp(`^${literal.join("[^/]+")}$`).test(pathname);
    })
    .map(([template, ops]) => ({ template, operation: ops[method.toLowerCase()] }))
    .filter((m): m is { template: string; operation: Operation } => m.operation !== undefined)
    // The most specific template wins (literal segments over parameters).
    .sort(
      (a, b) =>
        b.template.replace(/\{[^}]+\}/g, "").length - a.template.replace(/\{[^}]+\}/g, "").length,
    );
  return found[0] ?? null;
}

/** Each operation id and status an answer was checked for, in this test file. */
export const checkedAnswers = new Set<string>();

const JSON_MEDIA = /^application\/(problem\+)?json$/;

/**
 * Expects a JSON answer of the gateway's own routes to be what `/openapi.json` declares for its
 * route and status, field by field. Other answers (the `/v2` pass-through, whose answers are the
 * API's; HTML; empty bodies) are left alone. An answer no route declares (the gateway's 404 for an
 * unknown path) must be a problem.
 */
export async function expectDeclared(method: string, url: string, res: Response): Promise<void> {
  const { pathname } = new URL(url);
  const media = (res.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  const passedThrough = pathname.startsWith("/v2/") && pathname !== "/v2/openapi.json";
  if (passedThrough || !JSON_MEDIA.test(media) || res.status === 204) return;
  const body: unknown = await res.clone().json();
  const declared = declaredOperation(method, pathname);
  const where = `${method} ${pathname} → ${res.status} ${media}`;
  if (!declared) {
    expect(media, `${where}: no route declares it`).toBe("application/problem+json");
    expect(mismatches(body, { $ref: "#/components/schemas/Problem" }), where).toEqual([]);
    return;
  }
  const { operationId, responses } = declared.operation;
  const schema = responses[String(res.status)]?.content?.[media]?.schema;
  expect(schema, `${where}: ${operationId} declares no such answer`).toBeDefined();
  expect(mismatches(body, schema ?? {}), `${where} (${operationId})`).toEqual([]);
  checkedAnswers.add(`${operationId} ${res.status}`);
}

/** Every operation id whose declared answers include JSON, with those statuses. */
export function jsonOperations(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ops of Object.values(doc().paths))
    for (const { operationId, responses } of Object.values(ops)) {
      const statuses = Object.entries(responses)
        .filter(([, r]) => Object.keys(r.content ?? {}).some((m) => m === "application/json"))
        .map(([status]) => status);
      if (statuses.length) out.set(operationId, statuses);
    }
  return out;
}
