import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { Store } from "../../sandbox/src/engine/store";
import { fresh, json, session } from "./helpers";

type Session = Awaited<ReturnType<typeof session>>;

/** Runs `fn` inside `s`'s client object, with a store over its storage. */
function inClient<T>(
  s: Session,
  fn: (store: Store, storage: DurableObjectStorage) => T,
): Promise<T> {
  const ns = env.CLIENTS;
  return runInDurableObject(ns.get(ns.idFromName(`${s.environment}:${s.clientId}`)), (_i, state) =>
    fn(new Store(state.storage.sql), state.storage),
  );
}

beforeEach(() => fresh());

describe("the store's parsed documents", () => {
  it("answers frozen documents, so a handler cannot change what the next call reads", async () => {
    const s = await session();
    const thrown = await inClient(s, (store) => {
      store.put("Thing", "1", { Name: "a", Lines: [{ Qty: 1 }] }, { owner: "test" });
      const [r] = store.all("Thing");
      const tries = [
        () => Object.assign(r?.dto ?? {}, { Name: "b" }),
        () => (r?.dto.Lines as unknown[]).push({ Qty: 2 }),
        () => Object.assign((r?.dto.Lines as object[])[0] ?? {}, { Qty: 3 }),
      ];
      return tries.map((t) => {
        try {
          t();
          return false;
        } catch (e) {
          return e instanceof TypeError;
        }
      });
    });
    expect(thrown).toEqual([true, true, true]);
    expect(await inClient(s, (store) => store.get("Thing", "1")?.dto)).toEqual({
      Name: "a",
      Lines: [{ Qty: 1 }],
    });
  });

  it("keeps creation order through updates, and drops removed records and children", async () => {
    const s = await session();
    const seen = await inClient(s, (store) => {
      for (const id of ["1", "2", "3"]) store.put("Thing", id, { Id: id }, { owner: "test" });
      for (const id of ["a", "b"]) store.put("Part", id, { Id: id }, { parent: "2", owner: "t" });
      store.put("Part", "c", { Id: "c" }, { parent: "3", owner: "t" });
      store.all("Thing");
      store.all("Part");
      store.put("Thing", "1", { Id: "1", Name: "changed" }, { owner: "test" });
      store.put("Thing", "4", { Id: "4" }, { owner: "test" });
      store.remove("Thing", "2");
      store.removeChildren("Part", "2");
      return {
        things: store.all("Thing").map((r) => [r.id, r.dto.Name ?? null]),
        parts: store.all("Part").map((r) => r.id),
        underThree: store.all("Part", "3").map((r) => r.id),
      };
    });
    expect(seen).toEqual({
      things: [
        ["1", "changed"],
        ["3", null],
        ["4", null],
      ],
      parts: ["c"],
      underThree: ["c"],
    });
    // A store that parses the table afresh agrees with the copies.
    const afresh = await inClient(s, (store) => {
      store.forget();
      return store.all("Thing").map((r) => [r.id, r.dto.Name ?? null]);
    });
    expect(afresh).toEqual(seen.things);
  });

  it("shares the copies between stores over one storage, the object's own included", async () => {
    const s = await session();
    const before = await (await s.api("/Customers?name=Late%20Writer%20AS")).status;
    await inClient(s, (store) => {
      const id = store.nextId();
      store.put("Customer", id, { Id: id, Name: "Late Writer AS" }, { owner: "test" });
    });
    const res = await s.api("/Customers?name=Late%20Writer%20AS");
    expect([before, res.status]).toEqual([204, 200]);
    expect(((await res.json()) as { Name: string }[]).map((c) => c.Name)).toEqual([
      "Late Writer AS",
    ]);
  });

  it("forgets what a rolled-back transaction wrote", async () => {
    const s = await session();
    const seen = await inClient(s, (store, storage) => {
      store.put("Thing", "1", { Name: "kept" }, { owner: "test" });
      store.all("Thing");
      let refused = false;
      try {
        store.atomically(storage, () => {
          store.put("Thing", "1", { Name: "rolled back" }, { owner: "test" });
          store.put("Thing", "2", { Name: "rolled back" }, { owner: "test" });
          throw new Error("refused");
        });
      } catch {
        refused = true;
      }
      return { refused, things: store.all("Thing").map((r) => [r.id, r.dto.Name]) };
    });
    expect(seen).toEqual({ refused: true, things: [["1", "kept"]] });
  });

  it("answers an API write's record to the next read of its list", async () => {
    const s = await session();
    await s.api("/Customers");
    const made = await s.api("/Customers", json({ Name: "Fresh AS" }));
    expect(made.status).toBe(201);
    const list = (await (await s.api("/Customers?name=Fresh%20AS")).json()) as { Name: string }[];
    expect(list.map((c) => c.Name)).toEqual(["Fresh AS"]);
  });
});
