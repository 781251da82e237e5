import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { Store } from "../../sandbox/src/engine/store";
import { fresh, json, session } from "./helpers";

beforeEach(() => fresh());

type Session = Awaited<ReturnType<typeof session>>;
type Dto = Record<string, unknown>;

const patchOf = (ops: unknown) => json(ops, "PATCH", "application/json-patch+json");

async function post(s: Session, path: string, body: Dto, expected = 201): Promise<Dto> {
  const res = await s.api(path, json(body));
  expect(res.status, await res.clone().text()).toBe(expected);
  return (await res.json()) as Dto;
}

async function get(s: Session, path: string): Promise<Dto> {
  const res = await s.api(path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Dto;
}

/**
 * A record written straight into the client's data object: contacts of kinds the session's
 * privileges cannot create, and employees, whose own endpoints are not the subject here.
 */
async function seed(
  s: Session,
  kind: string,
  dto: Dto,
  parent: number | null = null,
): Promise<number> {
  const ns = env.CLIENTS;
  return runInDurableObject(
    ns.get(ns.idFromName(`${s.environment}:${s.clientId}`)),
    (_i, state) => {
      const store = new Store(state.storage.sql);
      const id = store.nextId();
      store.put(
        kind,
        id,
        { Id: id, ...dto, ...(parent === null ? {} : { ContactId: parent }) },
        { owner: "test", parent: parent === null ? null : String(parent) },
      );
      return id;
    },
  );
}

const customer = async (s: Session, name = "Fjord AS") =>
  post(s, "/Customers", { Name: name, MailAddress: { City: "Oslo", ZipCode: "0150" } });

describe("Contact persons", () => {
  it("creates, gets, patches (MailAddress included, per the spec's example) and deletes, with the API's field names", async () => {
    const s = await session();
    const c = await customer(s);
    const p = await post(s, `/ContactPersons/${c.Id}`, {
      FirstName: "Kari",
      LastName: "Nordmann",
      EmailAddress: "kari@fjord.no",
      ExternalCode: "P1",
      MailAddress: { City: "London", ZipCode: "SW1A 2AA", CountryCode: "gb" },
    });
    expect(p).toEqual({
      Id: expect.any(Number),
      ContactId: c.Id,
      FirstName: "Kari",
      LastName: "Nordmann",
      EmailAddress: "kari@fjord.no",
      ExternalCode: "P1",
      IsActive: true,
      IsDefault: false,
      PhoneNumber: null,
      Title: null,
      MailAddress: {
        AddressLine1: null,
        AddressLine2: null,
        City: "London",
        ZipCode: "SW1A 2AA",
        CountryCode: "GB",
      },
      CreatedDateTimeOffset: expect.any(String),
      LastChangedDateTimeOffset: expect.any(String),
    });
    expect(await get(s, `/ContactPersons/${c.Id}/${p.Id}`)).toEqual(p);
    const res = await s.api(
      `/ContactPersons/${c.Id}/${p.Id}`,
      patchOf([
        { op: "add", path: "/PhoneNumber", value: "2222 5555" },
        { op: "replace", path: "/MailAddress/AddressLine1", value: "Downing street 10" },
      ]),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      Id: p.Id,
      PhoneNumber: "2222 5555",
      MailAddress: { AddressLine1: "Downing street 10", City: "London" },
    });
    const del = await s.api(`/ContactPersons/${c.Id}/${p.Id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.text()).toBe("");
    expect((await s.api(`/ContactPersons/${c.Id}/${p.Id}`)).status).toBe(404);
  });

  it("refuses employees with 400: contact persons are not available for employee contacts", async () => {
    const s = await session();
    const employee = await seed(s, "Employee", { FirstName: "Ola", LastName: "Nordmann" });
    const res = await s.api(`/ContactPersons/${employee}`, json({ FirstName: "A", LastName: "B" }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      title: "Contact person validation error(s)",
      detail: "Contact persons are not available for employee contacts.",
    });
    // Employees are contacts all the same: bank accounts and delivery addresses take them.
    await post(s, `/ContactBankAccounts/${employee}`, { BankAccountNumber: "15030011111" });
    await post(s, `/ContactDeliveryAddresses/${employee}`, { City: "Oslo", ZipCode: "0150" });
  });

  it("takes suppliers and customers that are persons (the spec excludes only employees)", async () => {
    const s = await session();
    const person = await post(s, "/Customers", {
      IsPerson: true,
      FirstName: "Kari",
      LastName: "Nordmann",
    });
    const supplier = await post(s, "/Suppliers", { Name: "Leverandør AS" });
    expect(
      await post(s, `/ContactPersons/${person.Id}`, { FirstName: "A", LastName: "B" }),
    ).toMatchObject({ ContactId: person.Id });
    expect(
      await post(s, `/ContactPersons/${supplier.Id}`, { FirstName: "C", LastName: "D" }),
    ).toMatchObject({ ContactId: supplier.Id });
  });

  it("keeps one default: a new or patched IsDefault person takes it from the contact's other persons only", async () => {
    const s = await session();
    const c = await customer(s);
    const other = await customer(s, "Other AS");
    const a = await post(s, `/ContactPersons/${c.Id}`, {
      FirstName: "A",
      LastName: "A",
      IsDefault: true,
    });
    const elsewhere = await post(s, `/ContactPersons/${other.Id}`, {
      FirstName: "E",
      LastName: "E",
      IsDefault: true,
    });
    const b = await post(s, `/ContactPersons/${c.Id}`, {
      FirstName: "B",
      LastName: "B",
      IsDefault: true,
    });
    expect(b.IsDefault).toBe(true);
    expect((await get(s, `/ContactPersons/${c.Id}/${a.Id}`)).IsDefault).toBe(false);
    expect((await get(s, `/ContactPersons/${other.Id}/${elsewhere.Id}`)).IsDefault).toBe(true);
    expect(
      (
        await s.api(
          `/ContactPersons/${c.Id}/${a.Id}`,
          patchOf([{ op: "replace", path: "/IsDefault", value: true }]),
        )
      ).status,
    ).toBe(200);
    expect((await get(s, `/ContactPersons/${c.Id}/${b.Id}`)).IsDefault).toBe(false);
    expect((await get(s, `/ContactPersons/${c.Id}/${a.Id}`)).IsDefault).toBe(true);
  });
});

describe("Contact delivery addresses", () => {
  it("makes the first address of a contact primary; a later IsPrimary one takes over; deleting the primary passes it on", async () => {
    const s = await session();
    const c = await customer(s);
    const first = await post(s, `/ContactDeliveryAddresses/${c.Id}`, {
      City: "Oslo",
      ZipCode: "0150",
    });
    const second = await post(s, `/ContactDeliveryAddresses/${c.Id}`, {
      City: "Bergen",
      ZipCode: "5003",
    });
    expect([first.IsPrimary, second.IsPrimary]).toEqual([true, false]);
    const third = await post(s, `/ContactDeliveryAddresses/${c.Id}`, {
      City: "Trondheim",
      ZipCode: "7010",
      IsPrimary: true,
    });
    expect(third.IsPrimary).toBe(true);
    expect((await get(s, `/ContactDeliveryAddresses/${c.Id}/${first.Id}`)).IsPrimary).toBe(false);
    expect(
      (await s.api(`/ContactDeliveryAddresses/${c.Id}/${third.Id}`, { method: "DELETE" })).status,
    ).toBe(200);
    expect((await get(s, `/ContactDeliveryAddresses/${c.Id}/${first.Id}`)).IsPrimary).toBe(true);
  });

  it("defaults CountryCode to NO on POST, and on PATCH when set to null or an empty string", async () => {
    const s = await session();
    const c = await customer(s);
    const a = await post(s, `/ContactDeliveryAddresses/${c.Id}`, {
      City: "Oslo",
      ZipCode: "0150",
      AddressLine1: "Karl Johans gate 1",
    });
    expect(a).toEqual({
      Id: expect.any(Number),
      ContactId: c.Id,
      AddressLine1: "Karl Johans gate 1",
      AddressLine2: null,
      City: "Oslo",
      ZipCode: "0150",
      CountryCode: "NO",
      ExternalCode: null,
      IsPrimary: true,
      CreatedDateTimeOffset: expect.any(String),
      LastChangedDateTimeOffset: expect.any(String),
    });
    const path = `/ContactDeliveryAddresses/${c.Id}/${a.Id}`;
    expect(
      await (
        await s.api(path, patchOf([{ op: "replace", path: "/CountryCode", value: "se" }]))
      ).json(),
    ).toMatchObject({ CountryCode: "SE" });
    expect(
      await (
        await s.api(path, patchOf([{ op: "replace", path: "/CountryCode", value: "" }]))
      ).json(),
    ).toMatchObject({ CountryCode: "NO" });
    await s.api(path, patchOf([{ op: "replace", path: "/CountryCode", value: "DK" }]));
    expect(
      await (
        await s.api(path, patchOf([{ op: "replace", path: "/CountryCode", value: null }]))
      ).json(),
    ).toMatchObject({ CountryCode: "NO" });
  });

  it("never changes the contact's own MailAddress, and refuses a PATCH that reaches outside the address", async () => {
    const s = await session();
    const c = await customer(s);
    const a = await post(s, `/ContactDeliveryAddresses/${c.Id}`, {
      City: "Bergen",
      ZipCode: "5003",
    });
    const path = `/ContactDeliveryAddresses/${c.Id}/${a.Id}`;
    expect(
      (await s.api(path, patchOf([{ op: "replace", path: "/City", value: "Tromsø" }]))).status,
    ).toBe(200);
    for (const bad of ["/MailAddress", "/ContactId"]) {
      const res = await s.api(
        path,
        patchOf([
          { op: "add", path: bad, value: bad === "/ContactId" ? 1 : { City: "X", ZipCode: "1" } },
        ]),
      );
      expect(res.status, bad).toBe(400);
    }
    expect((await get(s, `/Customers/${c.Id}`)).MailAddress).toEqual(c.MailAddress);
  });
});

describe("Contact bank accounts", () => {
  it("creates with CountryCode NO and IsActive true by default, stamped CreateDateTimeOffset, and patches", async () => {
    const s = await session();
    const supplier = await post(s, "/Suppliers", { Name: "Leverandør AS" });
    const b = await post(s, `/ContactBankAccounts/${supplier.Id}`, {
      BankAccountNumber: "15030012345",
    });
    expect(b).toEqual({
      Id: expect.any(Number),
      ContactId: supplier.Id,
      BankAccountNumber: "15030012345",
      BankCode: null,
      BicSwift: null,
      CountryCode: "NO",
      IsActive: true,
      CreateDateTimeOffset: expect.any(String),
      LastChangedDateTimeOffset: expect.any(String),
    });
    const res = await s.api(
      `/ContactBankAccounts/${supplier.Id}/${b.Id}`,
      patchOf([{ op: "replace", path: "/IsActive", value: false }]),
    );
    expect(await res.json()).toMatchObject({
      IsActive: false,
      CreateDateTimeOffset: b.CreateDateTimeOffset,
    });
  });
});

describe("Contact details: not found", () => {
  it("answers 404 Object(s) not found for an unknown contact on every operation", async () => {
    const s = await session();
    for (const [path, init] of [
      ["/ContactPersons/999", json({ FirstName: "A", LastName: "B" })],
      ["/ContactBankAccounts/999", json({ BankAccountNumber: "1" })],
      ["/ContactDeliveryAddresses/999", json({ City: "Oslo", ZipCode: "0150" })],
      ["/ContactPersons/999/1", {}],
      ["/ContactDeliveryAddresses/999/1", { method: "DELETE" }],
    ] as const) {
      const res = await s.api(path, init);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({
        title: "Object(s) not found",
        detail: "Contact with id = 999 not found.",
      });
    }
  });

  it("answers 404 for an unknown item and for another contact's item, which stays as it was", async () => {
    const s = await session();
    const a = await customer(s, "A");
    const b = await customer(s, "B");
    const address = await post(s, `/ContactDeliveryAddresses/${a.Id}`, {
      City: "Oslo",
      ZipCode: "0150",
    });
    const unknown = await s.api(`/ContactDeliveryAddresses/${a.Id}/12345`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      title: "Object(s) not found",
      detail: `Contact delivery address with id = 12345 not found on Contact with id = ${a.Id}.`,
    });
    const wrong = `/ContactDeliveryAddresses/${b.Id}/${address.Id}`;
    expect((await s.api(wrong)).status).toBe(404);
    expect(
      (await s.api(wrong, patchOf([{ op: "replace", path: "/City", value: "X" }]))).status,
    ).toBe(404);
    expect((await s.api(wrong, { method: "DELETE" })).status).toBe(404);
    expect(await get(s, `/ContactDeliveryAddresses/${a.Id}/${address.Id}`)).toEqual(address);
  });
});

describe("Contact details: lists", () => {
  it("lists across contacts with contactIds, externalCodes, bankAccountNumbers; 204 when none; 400 for an id range", async () => {
    const s = await session();
    const a = await customer(s, "A");
    const b = await customer(s, "B");
    expect((await s.api("/ContactPersons")).status).toBe(204);
    await post(s, `/ContactPersons/${a.Id}`, {
      FirstName: "P",
      LastName: "1",
      ExternalCode: "ext-1",
    });
    await post(s, `/ContactPersons/${b.Id}`, {
      FirstName: "P",
      LastName: "2",
      ExternalCode: "ext-2",
    });
    await post(s, `/ContactBankAccounts/${a.Id}`, { BankAccountNumber: "111" });
    await post(s, `/ContactBankAccounts/${b.Id}`, { BankAccountNumber: "222" });
    const lastNames = async (q: string) =>
      ((await (await s.api(`/ContactPersons${q}`)).json()) as Dto[]).map((p) => p.LastName);
    expect(await lastNames("")).toEqual(["1", "2"]);
    expect(await lastNames(`?contactIds=${b.Id}`)).toEqual(["2"]);
    expect(await lastNames("?externalCodes=EXT-1, nope")).toEqual(["1"]);
    const accounts = (await (
      await s.api("/ContactBankAccounts?bankAccountNumbers=222")
    ).json()) as Dto[];
    expect(accounts.map((x) => x.ContactId)).toEqual([b.Id]);
    expect((await s.api("/ContactDeliveryAddresses")).status).toBe(204);
    expect((await s.api("/ContactPersons?contactIds=1-4")).status).toBe(400);
  });
});

describe("Contact details: access by the owner's privilege", () => {
  const production = (privileges: string[]) =>
    session("production", { privileges, subscriptions: ["Accounting"] });

  it("Customer_Full alone reaches customers' records but not suppliers' (403), and lists only customers'", async () => {
    const s = await production(["Customer_Full"]);
    const c = await customer(s);
    const supplier = await seed(s, "Supplier", { Name: "Leverandør AS" });
    const theirs = await seed(
      s,
      "ContactBankAccount",
      { BankAccountNumber: "999", LastChangedDateTimeOffset: new Date().toISOString() },
      supplier,
    );
    await post(s, `/ContactBankAccounts/${c.Id}`, { BankAccountNumber: "111" });
    const refused = await s.api(
      `/ContactBankAccounts/${supplier}`,
      json({ BankAccountNumber: "222" }),
    );
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ title: "Forbidden" });
    expect((await s.api(`/ContactBankAccounts/${supplier}/${theirs}`)).status).toBe(403);
    const listed = (await (await s.api("/ContactBankAccounts")).json()) as Dto[];
    expect(listed.map((x) => x.BankAccountNumber)).toEqual(["111"]);
  });

  it("a read privilege does not write: Customer with Supplier_Full may read a customer's records but not change them (403)", async () => {
    const s = await production(["Customer", "Supplier_Full"]);
    const c = await seed(s, "Customer", { Name: "Fjord AS" });
    const account = await seed(s, "ContactBankAccount", { BankAccountNumber: "111" }, c);
    expect((await get(s, `/ContactBankAccounts/${c}/${account}`)).BankAccountNumber).toBe("111");
    expect(
      (await s.api(`/ContactBankAccounts/${c}`, json({ BankAccountNumber: "222" }))).status,
    ).toBe(403);
    expect(
      (
        await s.api(
          `/ContactBankAccounts/${c}/${account}`,
          patchOf([{ op: "replace", path: "/IsActive", value: false }]),
        )
      ).status,
    ).toBe(403);
    expect((await s.api(`/ContactBankAccounts/${c}/${account}`, { method: "DELETE" })).status).toBe(
      403,
    );
    const supplier = await seed(s, "Supplier", { Name: "Leverandør AS" });
    await post(s, `/ContactBankAccounts/${supplier}`, { BankAccountNumber: "333" });
  });

  it("the detail's own privilege reaches every kind of contact", async () => {
    const s = await production(["ContactDeliveryAddress_Full"]);
    for (const kind of ["Customer", "Supplier", "Employee"]) {
      const id = await seed(s, kind, { Name: kind });
      await post(s, `/ContactDeliveryAddresses/${id}`, { City: "Oslo", ZipCode: "0150" });
    }
    expect(((await (await s.api("/ContactDeliveryAddresses")).json()) as Dto[]).length).toBe(3);
  });
});
