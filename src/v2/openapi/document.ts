/**
 * @module
 * The OpenAPI 3.1 document of API v2 through the gateway (`GET /v2/openapi.json`), built from the
 * catalog: parameters, body schemas, gateway-key auth, shaping headers and problems. Pure: the
 * caller memoizes it.
 */
import { CATALOG, type Operation } from "../../../shared/v2/catalog";
import { queryOf, querySchema, RESOURCE_PARAMETERS } from "../../../shared/v2/query";
import { PROBLEM_TYPES } from "../../kernel/problem";
import { relocate, toJsonSchema, type JsonSchema } from "../../kernel/openapi/json-schema";
import {
  ProblemBody,
  problemResponse,
  PROBLEM_MEDIA_TYPE,
  type ProblemStatus,
} from "../../kernel/openapi/problems";
import { SECURITY, SECURITY_SCHEMES } from "../../kernel/openapi/security";
import { operationIdOf, uniqueIds } from "../../kernel/openapi/operation-ids";
import { SHAPING_PARAMETERS, isListRead, isReferenceRead } from "./shaping";
import { v2Summary } from "./summary";

/** The statuses of the gateway's own problems on `/v2`, by what the operation does. */
const EVERY_CALL: ProblemStatus[] = [400, 401, 429, 502, 503, 504];
const WITH_BODY: ProblemStatus[] = [413, 415];
/** An `Idempotency-Key` replay with another body (422), or while the first is in flight (409). */
const IDEMPOTENT_WRITE: ProblemStatus[] = [409, 422];
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const OPEN_OBJECT = { type: "object", additionalProperties: true } as const;
const UNPUBLISHED =
  "No reachable source publishes this operation's shapes: the JSON body is passed on unchecked.";

/** The request body of `op`, and the component schema it uses (if any). */
function requestBody(
  op: Operation,
  id: string,
): { body?: JsonSchema; schemas: Record<string, JsonSchema> } {
  if (op.body === "none") return { schemas: {} };
  const schemas: Record<string, JsonSchema> = {};
  const content: Record<string, { schema: JsonSchema }> = {};
  let note = op.shape === "unpublished" ? UNPUBLISHED : "";
  if (op.body === "multipart" || op.body === "multipart-or-json") {
    content["multipart/form-data"] = {
      schema: {
        type: "object",
        properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
      },
    };
  }
  if (op.body !== "multipart") {
    const converted = op.schema ? toJsonSchema(op.schema) : null;
    if (converted?.ok) {
      schemas[`${id}Body`] = relocate(converted.schema, `${id}Body`);
      content[op.body === "json-patch" ? "application/json-patch+json" : "application/json"] = {
        schema: { $ref: `#/components/schemas/${id}Body` },
      };
    } else {
      if (converted && !converted.ok)
        note = `The body's schema has no JSON Schema form (${converted.reason}); the gateway still validates it.`;
      content["application/json"] = { schema: { ...OPEN_OBJECT } };
    }
  }
  if (op.method === "PATCH") {
    content["application/merge-patch+json"] = {
      schema: {
        ...OPEN_OBJECT,
        description:
          "RFC 7396 merge patch (ledgergate turns it into the JSON Patch the API takes; `null` removes a field; Codes and Numbers of references resolve to Ids).",
      },
    };
  }
  return { body: { required: true, ...(note ? { description: note } : {}), content }, schemas };
}

/** `op`'s paging and filter parameters, each its own `in: query` parameter. */
function queryParameters(op: Operation): JsonSchema[] {
  const query = queryOf(op.key);
  if (!query) return [];
  const paging = query.paged
    ? RESOURCE_PARAMETERS.map((r) => ({
        name: r.name,
        in: "query",
        required: false,
        description: r.description,
        schema: r.schema,
      }))
    : [];
  const own = query.params.map((p) => {
    const values =
      p.kind === "strings" && p.values ? ` One or more of: ${p.values.join(", ")}.` : "";
    return {
      name: p.name,
      in: "query",
      required: p.required === true,
      description: p.description + values,
      schema: querySchema(p),
    };
  });
  return [...paging, ...own];
}

/** `op`'s path and query parameters, then the gateway's headers that apply. */
function parameters(op: Operation): JsonSchema[] {
  const path = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  const refs = ["deadline"];
  if (WRITES.has(op.method)) refs.push("idempotencyKey");
  if (isListRead(op)) refs.push("preferPages");
  if (isReferenceRead(op)) refs.push("cacheControl");
  return [
    ...path,
    ...queryParameters(op),
    ...refs.map((r) => ({ $ref: `#/components/parameters/${r}` })),
  ];
}

function operation(
  op: Operation,
  id: string,
): { value: JsonSchema; schemas: Record<string, JsonSchema> } {
  const { body, schemas } = requestBody(op, id);
  const statuses = [
    ...EVERY_CALL,
    ...(body ? WITH_BODY : []),
    ...(WRITES.has(op.method) ? IDEMPOTENT_WRITE : []),
  ];
  const privileges = op.privileges.length
    ? `Privileges (any one): ${op.privileges.join(", ")}.`
    : "Any valid token.";
  const value: JsonSchema = {
    operationId: id,
    tags: [op.path.split("/")[1] ?? "v2"],
    summary: v2Summary(op),
    description: [privileges, op.shape === "unpublished" ? UNPUBLISHED : ""]
      .filter(Boolean)
      .join(" "),
    "x-privileges": op.privileges,
    parameters: parameters(op),
    ...(body ? { requestBody: body } : {}),
    responses: {
      "2XX": {
        description: "The API's answer, passed on unchanged.",
        content: { "application/json": { schema: {} } },
      },
      ...Object.fromEntries(
        [...new Set(statuses)]
          .sort()
          .map((s) => [String(s), { $ref: `#/components/responses/problem${s}` }]),
      ),
      default: {
        description: "The API's own error (ProblemDetails), passed on unchanged.",
        content: { "application/problem+json": { schema: {} }, "application/json": { schema: {} } },
      },
    },
  };
  return { value, schemas };
}

/** The whole document; `version` is the gateway's. */
export function v2Document(version: string): JsonSchema {
  const ids = uniqueIds(CATALOG.map(operationIdOf));
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const schemas: Record<string, JsonSchema> = {};
  CATALOG.forEach((op, i) => {
    const built = operation(op, ids[i] ?? op.key);
    (paths[op.path] ??= {})[op.method.toLowerCase()] = built.value;
    Object.assign(schemas, built.schemas);
  });
  const problem = toJsonSchema(ProblemBody);
  const statuses = [...new Set(Object.values(PROBLEM_TYPES).map((t) => t.status))].sort();
  return {
    openapi: "3.1.0",
    info: {
      title: "API v2 through ledgergate",
      version,
      description:
        "Every operation of the accounting API v2, called through ledgergate with a gateway key: the gateway adds the tenant's token and the subscription key, and answers as the API does. Opt-in shaping: Idempotency-Key on writes, merge patches, Codes for Ids, Prefer: pages=all, cached reference data. Errors the gateway itself answers are application/problem+json.",
    },
    servers: [{ url: "/v2" }],
    security: [{ [SECURITY.gatewayKey]: [] }],
    paths,
    components: {
      securitySchemes: { [SECURITY.gatewayKey]: SECURITY_SCHEMES[SECURITY.gatewayKey] },
      parameters: SHAPING_PARAMETERS,
      schemas: { Problem: problem.ok ? problem.schema : OPEN_OBJECT, ...schemas },
      responses: Object.fromEntries(
        statuses.map((s) => {
          const r = problemResponse(s);
          return [
            `problem${s}`,
            {
              description: r.description,
              content: {
                [PROBLEM_MEDIA_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } },
              },
            },
          ];
        }),
      ),
    },
  };
}
