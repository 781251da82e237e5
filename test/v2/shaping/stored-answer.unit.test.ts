import { describe, expect, it } from "vitest";
import { answerResponse, capture } from "../../../src/v2/shaping/stored-answer";

/** A response whose body arrives in `parts`. */
function streamed(parts: string[], init: ResponseInit): Response {
  const enc = new TextEncoder();
  const queue = [...parts];
  return new Response(
    new ReadableStream<Uint8Array>({
      pull: (c) => (queue.length ? c.enqueue(enc.encode(queue.shift())) : c.close()),
    }),
    init,
  );
}

describe("capture", () => {
  it("keeps status, the named headers and a body within the limit, and answers the caller the same", async () => {
    const res = streamed(['{"Id":', "1}"], {
      status: 201,
      headers: { "content-type": "application/json", location: "/v2/Customers/1", etag: '"e"' },
    });
    const c = await capture(res, ["content-type", "location"], 1024);
    expect(c.complete).toBe(true);
    expect(c.answer.status).toBe(201);
    expect(c.answer.headers).toEqual({
      "content-type": "application/json",
      location: "/v2/Customers/1",
    });
    expect(new TextDecoder().decode(c.answer.body ?? new ArrayBuffer(0))).toBe('{"Id":1}');
    expect(c.response.status).toBe(201);
    expect(c.response.headers.get("etag")).toBe('"e"');
    expect(await c.response.text()).toBe('{"Id":1}');
  });

  it("does not keep a body over the limit, but still gives the caller all of it", async () => {
    const parts = ["a".repeat(600), "b".repeat(600), "c".repeat(600)];
    const c = await capture(streamed(parts, { status: 200 }), [], 1000);
    expect(c.complete).toBe(false);
    expect(c.answer.body).toBeNull();
    expect(await c.response.text()).toBe(parts.join(""));
  });

  it("keeps an answer without a body", async () => {
    const c = await capture(new Response(null, { status: 204 }), ["content-type"], 10);
    expect(c).toMatchObject({ complete: true, answer: { status: 204, headers: {}, body: null } });
  });
});

describe("answerResponse", () => {
  it("gives the kept answer with extra headers; a body not kept has no content type", async () => {
    const body = await new Response('{"a":1}').arrayBuffer();
    const res = answerResponse(
      { status: 201, headers: { "content-type": "application/json", location: "/v2/X/1" }, body },
      { "idempotent-replayed": "true" },
    );
    expect([
      res.status,
      res.headers.get("location"),
      res.headers.get("idempotent-replayed"),
      await res.text(),
    ]).toEqual([201, "/v2/X/1", "true", '{"a":1}']);
    const bare = answerResponse(
      {
        status: 201,
        headers: { "content-type": "application/json", location: "/v2/X/1" },
        body: null,
      },
      {},
    );
    expect([
      bare.headers.get("content-type"),
      bare.headers.get("location"),
      await bare.text(),
    ]).toEqual([null, "/v2/X/1", ""]);
  });
});
