/**
 * `log.writes`: whether a line at a level would be written under the running Worker's `LOG_LEVEL`
 * (here none is set: `info`, the default), so callers can skip gathering one that would not be.
 */
import { describe, expect, it } from "vitest";
import { log } from "../../src/kernel/log";

describe("log.writes", () => {
  it("at the default level, writes info and above, not debug", () => {
    expect(log.writes("debug")).toBe(false);
    expect(log.writes("info")).toBe(true);
    expect(log.writes("warn")).toBe(true);
    expect(log.writes("error")).toBe(true);
  });
});
