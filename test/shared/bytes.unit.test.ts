import { describe, expect, it } from "vitest";
import { readCapped } from "../../shared/bytes";

/** A stream of `chunks`, then its end. */
function streamOf(...chunks: number[][]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new Uint8Array(c));
      controller.close();
    },
  });
}

describe("bytes: readCapped", () => {
  it("reads a body under the cap whole, chunks joined in order", async () => {
    const out = await readCapped(streamOf([1, 2], [3], [4, 5, 6]), 10);
    expect(out && Array.from(out)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reads a body of exactly the cap", async () => {
    const out = await readCapped(streamOf([1, 2, 3], [4, 5]), 5);
    expect(out && Array.from(out)).toEqual([1, 2, 3, 4, 5]);
  });

  it("answers null for a body one byte over the cap", async () => {
    expect(await readCapped(streamOf([1, 2, 3], [4, 5, 6]), 5)).toBeNull();
    expect(await readCapped(streamOf([1, 2, 3, 4, 5, 6]), 5)).toBeNull();
  });

  it("answers an empty array for an empty body", async () => {
    const out = await readCapped(streamOf(), 0);
    expect(out?.byteLength).toBe(0);
  });

  it("stops reading once past the cap and cancels the stream", async () => {
    let pulled = 0;
    let cancelled = false;
    // An endless body: readCapped must give up on its own.
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(100));
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    expect(await readCapped(endless, 1_000)).toBeNull();
    expect(cancelled).toBe(true);
    // 11 chunks pass 1,000 bytes; allow one more pulled ahead by the stream.
    expect(pulled).toBeGreaterThanOrEqual(11);
    expect(pulled).toBeLessThanOrEqual(12);
  });
});
