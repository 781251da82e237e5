/**
 * The error boundary: a Durable Object's overload is a 503 with Retry-After, never a bare 500; an
 * error of the gateway's own code still is a 500 that keeps its text to itself.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { GatewayApp } from "../../src/kernel/app";
import {
  handleError,
  OVERLOADED_RETRY_AFTER_SECONDS,
  PROBLEM_BASE,
} from "../../src/kernel/problem";
import { requestId } from "../../src/kernel/middleware/request-id";

/** The gateway's error boundary around one route that throws `err`, as a stub call would. */
function throwing(err: unknown) {
  return new Hono<GatewayApp>()
    .use("*", requestId)
    .get("/", () => {
      throw err;
    })
    .onError(handleError);
}

/** An error as workerd raises it for a Durable Object: a message and properties. */
const runtimeError = (message: string, props: Record<string, boolean>) =>
  Object.assign(new Error(message), props);

describe("error boundary: Durable Object overload", () => {
  it.each([
    [
      "with .overloaded",
      runtimeError("Durable Object is overloaded. Too many requests queued.", {
        overloaded: true,
        retryable: false,
      }),
    ],
    [
      "by its message only",
      runtimeError("Durable Object is overloaded. Requests queued for too long.", {}),
    ],
  ])("answers 503 with Retry-After for an overload %s", async (_how, err) => {
    const res = await throwing(err).request("/");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe(String(OVERLOADED_RETRY_AFTER_SECONDS));
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as { type: string; detail: string; requestId: string };
    expect(body.type).toBe(`${PROBLEM_BASE}unavailable`);
    expect(body.detail).not.toMatch(/Durable Object/);
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("answers 503 with Retry-After for a transient platform failure (.retryable, not from the object's code)", async () => {
    const res = await throwing(
      runtimeError("Network connection lost.", { retryable: true }),
    ).request("/");
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("keeps a 500 for anything else, including an error the object's own code threw", async () => {
    for (const err of [
      new TypeError("x is undefined"),
      runtimeError("boom", { remote: true, retryable: true }),
    ]) {
      const res = await throwing(err).request("/");
      expect(res.status).toBe(500);
      expect(res.headers.get("retry-after")).toBeNull();
      expect(JSON.stringify(await res.json())).not.toMatch(/undefined|boom/);
    }
  });
});
