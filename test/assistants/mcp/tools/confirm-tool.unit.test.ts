/**
 * `confirm_write`'s refusals of its idempotency key (`src/assistants/mcp/tools/confirm-tool.ts`):
 * said as what an assistant can do, which never includes choosing a key or sending a header.
 */
import { describe, expect, it } from "vitest";
import { Problem } from "../../../../src/kernel/problem";
import { ToolRefusal } from "../../../../src/assistants/mcp/results";
import { confirmRefusal } from "../../../../src/assistants/mcp/tools/confirm-tool";

const HEADER_WORDS = /Idempotency-Key|header|Retry-After|new key/i;

describe("confirm_write: the idempotency key's refusals", () => {
  it("tells the assistant to repeat the confirmation while the first is in flight", () => {
    const r = confirmRefusal(
      new Problem("idempotency-key-in-use", "still being answered", {
        headers: { "retry-after": "1" },
      }),
    );
    expect(r).toBeInstanceOf(ToolRefusal);
    const message = (r as ToolRefusal).message;
    expect(message).toContain("Call confirm_write again with the same confirmation");
    expect(message).not.toMatch(HEADER_WORDS);
  });

  it("tells it to read the record, then prepare again, when the outcome is unknown", () => {
    const r = confirmRefusal(new Problem("outcome-unknown", "no answer came back"));
    expect(r).toBeInstanceOf(ToolRefusal);
    const message = (r as ToolRefusal).message;
    expect(message).toMatch(/Read the record .* prepare the write again/);
    expect(message).not.toMatch(HEADER_WORDS);
  });

  it("passes any other error on as it is", () => {
    const other = new Problem("unprocessable", "The API refused it.");
    expect(confirmRefusal(other)).toBe(other);
    const crash = new TypeError("boom");
    expect(confirmRefusal(crash)).toBe(crash);
  });
});
