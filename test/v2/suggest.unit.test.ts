import { describe, expect, it } from "vitest";
import { nearestPath } from "../../src/v2/suggest";

describe("v2-suggest: did you mean", () => {
  it("finds the catalog path a small typo or a wrong casing-and-typo is nearest to", () => {
    expect(nearestPath("/Custmers")).toBe("/Customers");
    expect(nearestPath("/customer")).toBe("/Customers");
    expect(nearestPath("/Customers/12/Contactz")).toBeNull();
  });

  it("keeps the caller's own values for the parameters", () => {
    expect(nearestPath("/SalesOrders/7/Linez")).toBe("/SalesOrders/7/Lines");
  });

  it("suggests nothing when no path is near", () => {
    expect(nearestPath("/Zebrafish")).toBeNull();
    expect(nearestPath("/")).toBeNull();
  });
});
