/**
 * Merge patches through `/v2`: `application/merge-patch+json` becomes the JSON Patch the API takes,
 * checked before it is sent; anything that is not a plain object is refused with nothing sent.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { fresh, json, stats, tenant } from "../../helpers/gateway";

beforeEach(() => fresh());

const merge = (body: unknown, raw = false): RequestInit => ({
  method: "PATCH",
  headers: { "content-type": "application/merge-patch+json" },
  body: raw ? String(body) : JSON.stringify(body),
});
const requests = async () => (await stats()).requests;

/** A record with the fields every test below reads back. */
async function customer(t: Awaited<ReturnType<typeof tenant>>) {
  const res = await t.v2(
    "/Customers",
    json({
      Name: "Fjord AS",
      EmailAddress: "post@fjord.no",
      PhoneNumber: "+47 22 00 00 00",
      MailAddress: { AddressLine1: "Kaia 1", City: "Oslo", ZipCode: "0150", CountryCode: "NO" },
    }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Record<string, unknown> & { Id: number };
}

/** `after` without the fields named, and without what the API stamps on every change. */
const unchanged = (r: Record<string, unknown>, ...named: string[]) =>
  Object.fromEntries(
    Object.entries(r).filter(([k]) => !named.includes(k) && k !== "LastChangedDateTimeOffset"),
  );

describe("merge patch: happy", () => {
  it("changes exactly the named fields, in one upstream call: set, remove (null), set a field that had no value, and one nested field", async () => {
    const t = await tenant();
    const before = await customer(t);
    expect(before.WebsiteUrl).toBeNull();
    const n = await requests();
    const res = await t.v2(
      `/Customers/${before.Id}`,
      merge({
        Name: "Fjord Holding AS",
        PhoneNumber: null,
        WebsiteUrl: "https://fjord.no",
        MailAddress: { City: "Bergen" },
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await requests()) - n).toBe(1);
    const after = (await (await t.v2(`/Customers/${before.Id}`)).json()) as Record<
      string,
      unknown
    > & { MailAddress: Record<string, unknown> };
    expect(after).toMatchObject({
      Name: "Fjord Holding AS",
      PhoneNumber: null,
      WebsiteUrl: "https://fjord.no",
    });
    expect(after.MailAddress).toMatchObject({
      City: "Bergen",
      AddressLine1: "Kaia 1",
      ZipCode: "0150",
    });
    expect(unchanged(after, "Name", "PhoneNumber", "WebsiteUrl", "MailAddress")).toEqual(
      unchanged(before, "Name", "PhoneNumber", "WebsiteUrl", "MailAddress"),
    );
  });

  it("takes the media type with parameters, and leaves a plain JSON Patch as it was", async () => {
    const t = await tenant();
    const c = await customer(t);
    const withCharset = await t.v2(`/Customers/${c.Id}`, {
      method: "PATCH",
      headers: { "content-type": "Application/Merge-Patch+JSON; charset=utf-8" },
      body: JSON.stringify({ Name: "A" }),
    });
    expect(withCharset.status).toBe(200);
    const plain = await t.v2(`/Customers/${c.Id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json-patch+json" },
      body: JSON.stringify([{ op: "replace", path: "/Name", value: "B" }]),
    });
    expect(await plain.json()).toMatchObject({ Name: "B" });
  });
});

describe("merge patch: bad input is refused before anything is sent", () => {
  it("an array, a scalar, null, invalid JSON, an empty body or an empty object is a 400 problem", async () => {
    const t = await tenant();
    const c = await customer(t);
    const n = await requests();
    for (const body of [
      "[]",
      '[{"op":"replace","path":"/Name","value":"x"}]',
      '"Name"',
      "7",
      "null",
      "{ Name: ",
      "{}",
      '{"MailAddress":{}}',
    ]) {
      const res = await t.v2(`/Customers/${c.Id}`, merge(body, true));
      expect(res.status, body).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(((await res.json()) as { detail: string }).detail, body).toMatch(/nothing was sent/);
    }
    expect(
      (
        await t.v2(`/Customers/${c.Id}`, {
          method: "PATCH",
          headers: { "content-type": "application/merge-patch+json" },
        })
      ).status,
    ).toBe(400);
    expect((await requests()) - n).toBe(0);
  });

  it("a patch the catalog refuses (more operations than a JSON Patch may hold) is a validation problem", async () => {
    const t = await tenant();
    const n = await requests();
    const big = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`F${i}`, i]));
    const res = await t.v2("/Customers/1", merge(big));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: "https://ledgergate.dev/problems/validation-failed",
    });
    expect((await requests()) - n).toBe(0);
  });

  it("the API still judges the fields: an unknown one is its 400, after one call", async () => {
    const t = await tenant();
    const c = await customer(t);
    const n = await requests();
    const res = await t.v2(`/Customers/${c.Id}`, merge({ Nmae: "typo" }));
    expect(res.status).toBe(400);
    expect((await requests()) - n).toBe(1);
    expect(((await (await t.v2(`/Customers/${c.Id}`)).json()) as { Name: string }).Name).toBe(
      "Fjord AS",
    );
  });
});
