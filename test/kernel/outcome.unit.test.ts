import { describe, expect, it } from "vitest";
import { fail, ok, problemOf, unwrap, type Reason } from "../../src/kernel/outcome";
import { PROBLEM_BASE, Problem, type ProblemType } from "../../src/kernel/problem";

/**
 * Every reason, with the problem a caller must see: a new reason does not compile until it is added
 * here.
 */
const EXPECTED: Record<Reason, { type: ProblemType; status: number }> = {
  unauthorized: { type: "unauthorized", status: 401 },
  "bad-signature": { type: "unauthorized", status: 401 },
  "bad-request": { type: "bad-request", status: 400 },
  "not-found": { type: "not-found", status: 404 },
  conflict: { type: "conflict", status: 409 },
  rejected: { type: "credentials-rejected", status: 502 },
  unprocessable: { type: "unprocessable", status: 422 },
  "too-many": { type: "too-many-requests", status: 429 },
  unavailable: { type: "unavailable", status: 503 },
  misconfigured: { type: "unavailable", status: 503 },
};
const REASONS = Object.keys(EXPECTED) as Reason[];

describe("outcome: problemOf", () => {
  it.each(REASONS)(
    "maps %s to its problem type and status, detail passed through",
    async (reason) => {
      const p = problemOf({ reason, detail: `detail of ${reason}` });
      expect(p).toBeInstanceOf(Problem);
      expect(p.type).toBe(EXPECTED[reason].type);
      const res = p.toResponse("req-1");
      expect(res.status).toBe(EXPECTED[reason].status);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("x-request-id")).toBe("req-1");
      expect(await res.json()).toMatchObject({
        type: PROBLEM_BASE + EXPECTED[reason].type,
        status: EXPECTED[reason].status,
        detail: `detail of ${reason}`,
        requestId: "req-1",
      });
    },
  );

  it("gives an unauthorized answer a WWW-Authenticate challenge", () => {
    expect(
      problemOf({ reason: "unauthorized", detail: "no" })
        .toResponse("r")
        .headers.get("www-authenticate"),
    ).toBe("Bearer");
  });

  it("turns retryAfterSeconds into Retry-After on too-many, unavailable and misconfigured", () => {
    expect(
      problemOf({ reason: "too-many", detail: "full", retryAfterSeconds: 42 })
        .toResponse("r")
        .headers.get("retry-after"),
    ).toBe("42");
    expect(
      problemOf({ reason: "unavailable", detail: "busy", retryAfterSeconds: 7 })
        .toResponse("r")
        .headers.get("retry-after"),
    ).toBe("7");
    expect(
      problemOf({ reason: "misconfigured", detail: "keys", retryAfterSeconds: 30 })
        .toResponse("r")
        .headers.get("retry-after"),
    ).toBe("30");
    expect(
      problemOf({ reason: "unavailable", detail: "busy" })
        .toResponse("r")
        .headers.get("retry-after"),
    ).toBeNull();
  });
});

describe("outcome: fail, ok and unwrap", () => {
  it("fail leaves retryAfterSeconds out unless it is given", () => {
    expect(fail("conflict", "taken")).toEqual({
      ok: false,
      error: { reason: "conflict", detail: "taken" },
    });
    expect("retryAfterSeconds" in fail("conflict", "taken").error).toBe(false);
    expect(fail("unavailable", "busy", 2)).toEqual({
      ok: false,
      error: { reason: "unavailable", detail: "busy", retryAfterSeconds: 2 },
    });
  });

  it("unwrap answers the value of a success and throws the problem of a failure", () => {
    expect(unwrap(ok({ a: 1 }))).toEqual({ a: 1 });
    let thrown: unknown = null;
    try {
      unwrap(fail("not-found", "No such tenant."));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Problem);
    expect(thrown).toMatchObject({ type: "not-found", detail: "No such tenant." });
  });
});
