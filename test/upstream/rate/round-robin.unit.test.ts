/**
 * Whose turn it is (`upstream/rate/round-robin.ts`): one request per key per turn, each key's in
 * the order they came, a passed deadline taken out without losing a key's place.
 */
import { describe, expect, it } from "vitest";
import { RoundRobin } from "../../../src/upstream/rate/round-robin";

type W = { tenant: string; id: number };
const w = (tenant: string, id: number): W => ({ tenant, id });

function drain(rr: RoundRobin<W>): number[] {
  const ids: number[] = [];
  for (let next = rr.shift(); next; next = rr.shift()) ids.push(next.waiting.id);
  return ids;
}

describe("round-robin", () => {
  it("serves one request per key per turn, each key's in order, a new key at the back of the ring", () => {
    const rr = new RoundRobin<W>();
    for (let i = 1; i <= 4; i++) rr.push("a", w("a", i));
    rr.push("b", w("b", 10));
    rr.push("b", w("b", 11));
    expect(rr.shift()).toEqual({ key: "a", waiting: w("a", 1) });
    rr.push("c", w("c", 20));
    expect(drain(rr)).toEqual([10, 2, 20, 11, 3, 4]);
    expect([rr.size, rr.keys]).toEqual([0, 0]);
  });

  it("counts what is served before a new request of a key: its own, and at most one more from each other key", () => {
    const rr = new RoundRobin<W>();
    for (let i = 0; i < 50; i++) rr.push("bulk", w("bulk", i));
    rr.push("one", w("one", 100));
    expect(rr.ahead("light")).toBe(2);
    expect(rr.ahead("one")).toBe(1 + 2);
    expect(rr.ahead("bulk")).toBe(50 + 1);
    expect(rr.byKey()).toEqual({ bulk: 50, one: 1 });
  });

  it("takes out what is gone in queue order, dropping a key left empty and keeping the others' turns", () => {
    const rr = new RoundRobin<W>();
    rr.push("a", w("a", 1));
    rr.push("b", w("b", 2));
    rr.push("a", w("a", 3));
    rr.push("c", w("c", 4));
    const gone = rr.remove((x) => x.id === 2 || x.id === 3);
    expect(gone).toEqual([
      { key: "a", waiting: w("a", 3) },
      { key: "b", waiting: w("b", 2) },
    ]);
    expect(rr.has("b")).toBe(false);
    expect([...rr.all()].map((x) => x.id)).toEqual([1, 4]);
    expect(drain(rr)).toEqual([1, 4]);
  });
});
