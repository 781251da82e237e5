/**
 * Tool failures as `isError` results (`src/assistants/mcp/results.ts`): the gateway's refusal with
 * each field's error, the shared budget's 503 as "try again in N seconds", the API's own refusal
 * with its ProblemDetails, and anything unexpected as a generic message that leaks nothing.
 */
import { describe, expect, it } from "vitest";
import { Problem } from "../../../src/kernel/problem";
import { apiRefusal, refusalOf } from "../../../src/assistants/mcp/results";

describe("results: refusals", () => {
  it("turns the governor's 503 with Retry-After into a retry that says when", () => {
    const r = refusalOf(
      new Problem(
        "unavailable",
        "The demo environment's shared rate limit cannot take this call before its deadline.",
        {
          headers: { "retry-after": "7" },
        },
      ),
      "req-1",
    );
    expect(r.outcome).toBe("retry");
    expect(r.message).toContain("shared rate limit");
    expect(r.message).toMatch(/Try again in 7 seconds\.$/);
  });

  it("lists each field's error of a validation problem", () => {
    const r = refusalOf(
      new Problem("validation-failed", "The body failed validation; nothing was sent to the API.", {
        errors: [{ path: "Name", message: "Name is required" }],
      }),
      "req-2",
    );
    expect(r.outcome).toBe("error");
    expect(r.message).toBe(
      "The request failed validation (400): The body failed validation; nothing was sent to the API.\n- Name: Name is required",
    );
  });

  it("hides an unexpected error's text behind the request id", () => {
    const r = refusalOf(new Error("token abc123 leaked"), "req-3");
    expect(r.message).not.toContain("abc123");
    expect(r.message).toContain("req-3");
  });

  it("reads the API's refusal, and a 429's Retry-After", async () => {
    const notFound = await apiRefusal(
      Response.json({ title: "Not Found", detail: "Customer 9 was not found." }, { status: 404 }),
      "GET /Customers/9",
    );
    expect(notFound?.message).toBe(
      "The API answered 404 to GET /Customers/9: Not Found Customer 9 was not found.",
    );
    const busy = await apiRefusal(
      new Response("", { status: 429, headers: { "retry-after": "2" } }),
      "GET /Customers",
    );
    expect(busy?.outcome).toBe("retry");
    expect(busy?.message).toMatch(/Try again in 2 seconds\.$/);
    expect(await apiRefusal(new Response("{}", { status: 200 }), "GET /Customers")).toBeNull();
  });
});
