/**
 * How long a call may wait for its rate permit (`upstream/client.ts`): never so long that the
 * API has no time left to answer. Pure arithmetic on the call's remaining time.
 */
import { describe, expect, it } from "vitest";
import { ANSWER_RESERVE_MS, permitWaitMs } from "../../src/upstream/client";

describe("upstream client: the wait for a permit", () => {
  it("keeps ANSWER_RESERVE_MS of a long deadline for the answer", () => {
    expect(permitWaitMs(30_000)).toBe(30_000 - ANSWER_RESERVE_MS);
    expect(permitWaitMs(2 * ANSWER_RESERVE_MS)).toBe(ANSWER_RESERVE_MS);
  });

  it("keeps half of a short deadline, so a caller in a hurry still gets a permit when the pace is free", () => {
    expect(permitWaitMs(500)).toBe(250);
    expect(permitWaitMs(1)).toBe(0.5);
  });
});
