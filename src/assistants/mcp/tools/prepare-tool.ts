/**
 * @module
 * `prepare_write` (docs/mcp.md, "Writes"): checks a write exactly as the same `/v2` call, and the
 * scope against its class; sends nothing, keeps it under a new handle's hash
 * (`assistants/tenant/write-confirmations.ts`), and answers a preview and the handle.
 */
import { z } from "zod";
import type { McpServer, ScopeChallengeHandler } from "@modelcontextprotocol/server";
import { matchOperation } from "../../../../shared/v2/catalog";
import { MAX_PREPARED_BODY_BYTES } from "../../tenant/write-confirmations";
import { randomSecret, sha256Hex } from "../../../kernel/crypto";
import { v2Summary } from "../../../v2/openapi/summary";
import { guarded, type ToolContext, type ToolStep } from "../audit";
import { operationClass } from "../operation-class";
import { writeMediaType } from "../port";
import { previewOf } from "../preview";
import { allows } from "../principal";
import { structured, ToolRefusal } from "../results";
import { ApiPath, Query, searchOf, WriteMethod } from "./shapes";
import { Handle, writeOperation } from "./write-kit";

const PrepareInput = z.object({
  method: WriteMethod,
  path: ApiPath,
  query: Query.optional(),
  body: z
    .unknown()
    .optional()
    .describe("The JSON body (PATCH: an object of the fields to change, or a JSON Patch array)."),
});
type PrepareInput = z.output<typeof PrepareInput>;

const PrepareAnswer = z.strictObject({
  confirmation: Handle.describe("Pass it to confirm_write to perform the write, once."),
  expiresAt: z.string().describe("Unconfirmed after this time, the write is dropped."),
  operation: z.strictObject({
    method: WriteMethod,
    path: z.string(),
    template: z.string(),
    summary: z.string(),
    class: z.enum(["draft", "write"]),
  }),
  preview: z.string().describe("The write in words: show it to the person before confirming."),
  changes: z.array(z.strictObject({ field: z.string(), value: z.string() })),
});

/** Checks and keeps a write; answers its preview and handle. */
async function prepare(tc: ToolContext, input: PrepareInput, step: ToolStep) {
  const json = input.body === undefined ? null : JSON.stringify(input.body);
  const call = {
    method: input.method,
    path: input.path,
    search: searchOf(input.query),
    json,
    mediaType: writeMediaType(input.method, input.body),
  };
  // An unknown path or method gets the same /v2 call's 404 or 405 first.
  if (matchOperation(input.method, input.path).kind !== "operation") await tc.port.check(call);
  const op = writeOperation(input.method, input.path);
  step.operation = op.key;
  const cls = operationClass(op);
  if (cls === "read") throw new ToolRefusal("A GET changes nothing: use the read tool.");
  if (!allows(tc.principal.scope, cls))
    throw new ToolRefusal(
      `This connection's scope is ${tc.principal.scope}: it may prepare drafts only (creating and changing master data, sales orders and journal entry vouchers). ${op.key} is of class ${cls} (it sends, posts, deletes or changes what a draft may not); nothing was sent.`,
    );
  if (op.body === "multipart")
    throw new ToolRefusal(
      `${op.key} uploads a file, and MCP sends JSON only: the person uploads it through /v2 with the gateway key. Nothing was sent.`,
    );
  if (op.body === "none" && input.body !== undefined)
    throw new ToolRefusal(`${op.key} takes no body; leave body out.`);
  if (op.body !== "none" && input.body === undefined)
    throw new ToolRefusal(
      `${op.key} takes a JSON body: see describe_operation for its schema. Nothing was sent.`,
    );
  await tc.port.check(call);
  const bytes = json === null ? 0 : new TextEncoder().encode(json).byteLength;
  if (bytes > MAX_PREPARED_BODY_BYTES)
    throw new ToolRefusal(
      `The body is ${bytes} bytes; a prepared write keeps at most ${MAX_PREPARED_BODY_BYTES}, and nothing was kept. A write this large is for the person to send through /v2 with the gateway key.`,
    );
  const handle = `cw_${randomSecret(18)}`;
  const kept = await tc.port.stash({
    handleHash: await sha256Hex(handle),
    principal: tc.principal.id,
    write: {
      method: input.method,
      path: input.path,
      search: call.search,
      body: json,
      operationClass: cls,
    },
  });
  const words = previewOf(op, input.method, input.path, input.body, cls);
  return structured({
    confirmation: handle,
    expiresAt: new Date(kept.expiresAt).toISOString(),
    operation: {
      method: input.method,
      path: input.path,
      template: op.path,
      summary: v2Summary(op),
      class: cls,
    },
    ...words,
  });
}

/**
 * An OAuth session's step-up: a write whose class the grant lacks but the endpoint allows is
 * answered `403 insufficient_scope` before the tool runs, so the client can ask the person again.
 */
function stepUp(tc: ToolContext): ScopeChallengeHandler {
  return ({ request }) => {
    const input = PrepareInput.safeParse(request.params?.arguments);
    if (!input.success) return undefined;
    const m = matchOperation(input.data.method, input.data.path);
    if (m.kind !== "operation") return undefined;
    const cls = operationClass(m.op);
    const { scope, ceiling } = tc.principal;
    return cls !== "read" && !allows(scope, cls) && allows(ceiling, cls)
      ? { scopes: [cls], errorDescription: `${m.op.key} needs scope ${cls}` }
      : undefined;
  };
}

export function registerPrepareTool(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "prepare_write",
    {
      title: "Prepare a write (sends nothing)",
      description:
        "Checks a write (POST, PUT, PATCH or DELETE of the API) exactly as the gateway checks it, and answers a preview in words and a confirmation. Nothing is sent. Show the preview to the person; only when they agree, call confirm_write with the confirmation (valid 10 minutes, for this connection only).",
      inputSchema: PrepareInput,
      outputSchema: PrepareAnswer,
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      scopeChallenge: stepUp(tc),
    },
    (input) => guarded(tc, "prepare_write", (step) => prepare(tc, input, step)),
  );
}
