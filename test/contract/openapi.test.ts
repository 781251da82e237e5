/**
 * Both OpenAPI documents, validated by a public validator (`@seriousme/openapi-schema-validator`).
 * It runs in Node, not workerd (it reads its meta-schemas from disk and compiles them to code with
 * Ajv, which workerd forbids), so the documents are built here with the very functions the gateway
 * serves them with; test/kernel/openapi/openapi.test.ts checks that the gateway serves the same
 * documents.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import app from "../../src/index";
import { gatewayDocument } from "../../src/kernel/openapi/gateway-document";
import { v2Document } from "../../src/v2/openapi/document";

async function expectValid(doc: object): Promise<void> {
  const validator = new Validator();
  // The validator takes any object and reports what is wrong with it; its type asks for a
  // spec-shaped one.
  const result = await validator.validate(
    structuredClone(doc) as Parameters<Validator["validate"]>[0],
  );
  expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 3000)).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe("3.1");
}

describe("contract: the documents are valid OpenAPI 3.1", () => {
  it("the gateway's own document (/openapi.json)", async () => {
    await expectValid(gatewayDocument(app, "0.1.0"));
  });

  it("API v2 through the gateway (/v2/openapi.json)", async () => {
    await expectValid(v2Document("0.1.0"));
  });
});

type Schema = { [keyword: string]: unknown };
type Answers = Record<string, { content?: Record<string, { schema?: Schema }> }>;

/** Where an object of `schema` (its references followed) is left open to undeclared fields. */
function openObjects(schema: unknown, components: Record<string, Schema>, at: string): string[] {
  if (Array.isArray(schema))
    return schema.flatMap((s, i) => openObjects(s, components, `${at}/${i}`));
  if (typeof schema !== "object" || schema === null) return [];
  const s = schema as Schema;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/components/schemas/", "");
    return openObjects(components[name], components, name);
  }
  const own = "properties" in s && s.additionalProperties !== false ? [at] : [];
  return [
    ...own,
    ...Object.entries(s).flatMap(([k, v]) =>
      k === "properties" && typeof v === "object" && v !== null
        ? Object.entries(v).flatMap(([p, x]) => openObjects(x, components, `${at}.${p}`))
        : typeof v === "object"
          ? openObjects(v, components, `${at}/${k}`)
          : [],
    ),
  ];
}

describe("contract: the gateway's JSON answers are closed objects", () => {
  it("every object of every JSON answer in /openapi.json says additionalProperties: false", () => {
    const doc = gatewayDocument(app, "0.1.0") as unknown as {
      paths: Record<string, Record<string, { operationId: string; responses: Answers }>>;
      components: { schemas: Record<string, Schema> };
    };
    const open = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).flatMap(({ operationId, responses }) =>
        Object.entries(responses).flatMap(([status, r]) =>
          Object.entries(r.content ?? {})
            .filter(([media]) => /json$/.test(media))
            .flatMap(([, c]) =>
              openObjects(c.schema, doc.components.schemas, `${operationId} ${status}`),
            ),
        ),
      ),
    );
    expect([...new Set(open)]).toEqual([]);
  });
});
