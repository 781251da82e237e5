/**
 * @module
 * `confirm_write` (docs/mcp.md, "Writes"): performs the write `prepare_write` kept, with an
 * idempotency key derived from the handle, so a repeated confirm is answered from the write's
 * idempotency record, never written twice. The scope is checked again: a handle is a name, not a
 * capability. No elicitation: 2025-era clients served statelessly cannot answer it.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";
import { sha256Hex } from "../../../kernel/crypto";
import { Problem } from "../../../kernel/problem";
import { REPLAYED } from "../../../v2/shaping/idempotency";
import { guarded, type ToolContext, type ToolStep } from "../audit";
import { READ_MAX_CHARS } from "../paging";
import { writeMediaType } from "../port";
import { allows } from "../principal";
import { apiRefusal, structured, ToolRefusal } from "../results";
import { Handle, writeOperation } from "./write-kit";

const ConfirmAnswer = z.strictObject({
  status: z.int().describe("The API's status."),
  replayed: z
    .boolean()
    .describe("An earlier confirmation performed it; nothing was written again."),
  idempotencyKey: z.string(),
  location: z
    .string()
    .nullable()
    .describe("The record's address at the gateway, if the API gave one."),
  result: z.unknown().describe("The API's answer (the record written), when it sent one."),
  note: z.string(),
});

/** The idempotency key a handle's write is sent with: stable for the handle, not the handle. */
export async function confirmationKey(handle: string): Promise<string> {
  return `mcp-${(await sha256Hex(`idempotency-key:${handle}`)).slice(0, 40)}`;
}

/**
 * The refusals of a confirmation's idempotency key in words the assistant can act on: it chooses no
 * key and sends no header, so it repeats the confirmation, reads the record, or prepares the write
 * again (a new confirmation, a new key). Any other error is passed on as it is.
 */
export function confirmRefusal(err: unknown): unknown {
  if (!(err instanceof Problem)) return err;
  switch (err.type) {
    case "idempotency-key-in-use":
      return new ToolRefusal(
        "The first confirm_write of this confirmation is still being performed. Call confirm_write again with the same confirmation in a second: it answers that write's answer and writes nothing twice.",
      );
    case "outcome-unknown":
      return new ToolRefusal(
        "This write was sent, but no answer came back, so whether the API applied it is unknown; confirming again answers the same. Read the record (read) to see whether it was written, and only if it was not, prepare the write again: a new confirmation is a new write.",
      );
    case "idempotency-key-reused":
      return new ToolRefusal(
        "This confirmation's key was first used for another write, so nothing was sent. Prepare the write again.",
      );
    default:
      return err;
  }
}

/** Performs a prepared write once; a repeat gets the first answer. */
async function confirm(tc: ToolContext, handle: string, step: ToolStep) {
  const taken = await tc.port.take(await sha256Hex(handle), tc.principal.id);
  if (taken.kind === "unknown")
    throw new ToolRefusal(
      "No write prepared on this connection has this confirmation (it may be mistyped, prepared with another key, or dropped when the tenant's client key changed). Nothing was sent: prepare the write again.",
    );
  if (taken.kind === "expired")
    throw new ToolRefusal(
      "This confirmation expired before it was confirmed; nothing was sent. Prepare the write again.",
    );
  const w = taken.write;
  step.operation = writeOperation(w.method, w.path).key;
  if (!allows(tc.principal.scope, w.operationClass))
    throw new ToolRefusal(
      `This connection's scope is ${tc.principal.scope}: it cannot confirm a write of class ${w.operationClass}. Nothing was sent.`,
    );
  step.idempotencyKey = await confirmationKey(handle);
  const res = await tc.port
    .send(
      {
        method: w.method,
        path: w.path,
        search: w.search,
        json: w.body,
        mediaType: writeMediaType(
          w.method,
          w.body === null ? null : (JSON.parse(w.body) as unknown),
        ),
        idempotencyKey: step.idempotencyKey,
      },
      step.run,
    )
    .catch((e: unknown) => {
      throw confirmRefusal(e);
    });
  const refused = await apiRefusal(res, `${w.method} ${w.path}`);
  if (refused) throw refused;
  const replayed = res.headers.get(REPLAYED) === "true";
  const text = await res.text();
  const fits = text.length <= READ_MAX_CHARS;
  return structured({
    status: res.status,
    replayed,
    idempotencyKey: step.idempotencyKey,
    location: res.headers.get("location"),
    result: fits && text ? (JSON.parse(text) as unknown) : null,
    note: [
      replayed
        ? "This confirmation was performed before: this is that write's answer, and nothing was written again."
        : "Performed once.",
      fits ? "" : `The API's answer is ${text.length} characters: read the record with read.`,
    ]
      .filter(Boolean)
      .join(" "),
  });
}

export function registerConfirmTool(server: McpServer, tc: ToolContext): void {
  server.registerTool(
    "confirm_write",
    {
      title: "Perform a prepared write, once",
      description:
        "Performs the write prepare_write checked, once. Calling it again with the same confirmation (after a dropped answer, say) returns the same answer and writes nothing again: reuse the confirmation, never prepare again to retry.",
      inputSchema: z.object({ confirmation: Handle }),
      outputSchema: ConfirmAnswer,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    ({ confirmation }) => guarded(tc, "confirm_write", (step) => confirm(tc, confirmation, step)),
  );
}
