import { beforeEach, describe, expect, it } from "vitest";
import { fresh, json, putRecords, session } from "./helpers";

beforeEach(() => fresh());

type Session = Awaited<ReturnType<typeof session>>;
type Row = Record<string, unknown>;

const ADMIN_ROLE = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
const ACCOUNTANT_ROLE = "1b0e6f3c-2d4a-4c8e-9f10-5a6b7c8d9e01";
const ADMIN_USER = "0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f";
const UNKNOWN = "5d41402a-bc4b-4a76-b971-9d911017c592";

function clientBody(extra: Row = {}): Row {
  return {
    AdminUserId: ADMIN_USER,
    ClientName: "Fjord Regnskap AS",
    LegalName: "Fjord Regnskap AS",
    OrganizationNumber: "923609016",
    MailAddress: { AddressLine1: "Storgata 1", City: "Oslo", ZipCode: "0155", CountryCode: "NO" },
    ...extra,
  };
}

async function body<T = Row>(res: Response, status: number): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function newPartnerClient(s: Session, extra: Row = {}): Promise<Row> {
  return body(await s.api("/ClientAdmin/CreateNewClient", json(clientBody(extra))), 200);
}

async function expectProblem(
  res: Response,
  status: number,
  title: string,
  detail?: RegExp,
): Promise<Row> {
  const p = await body(res, status);
  expect(p.title).toBe(title);
  if (detail) expect(String(p.detail)).toMatch(detail);
  return p;
}

describe("ClientAdmin: clients", () => {
  it("creates a client (200 ClientDto) and lists it; 204 before, and for isActive=false", async () => {
    const s = await session();
    expect((await s.api("/ClientAdmin/Clients")).status).toBe(204);
    const c = await newPartnerClient(s);
    expect(c).toEqual({
      ClientName: "Fjord Regnskap AS",
      Id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      IsActive: true,
      OrganizationNumber: "923609016",
    });
    expect(await body(await s.api("/ClientAdmin/Clients"), 200)).toEqual([c]);
    expect(await body(await s.api("/ClientAdmin/Clients?isActive=true"), 200)).toEqual([c]);
    expect((await s.api("/ClientAdmin/Clients?isActive=false")).status).toBe(204);
  });

  it("refuses a client without a required field, naming it", async () => {
    const s = await session();
    const { LegalName: _drop, ...rest } = clientBody();
    const p = await body<{ errors: Record<string, string[]> }>(
      await s.api("/ClientAdmin/CreateNewClient", json(rest)),
      400,
    );
    expect(Object.keys(p.errors)).toContain("LegalName");
    expect((await s.api("/ClientAdmin/Clients")).status).toBe(204);
  });

  it("answers 404 for a TemplateClientId that is not one of the partner's clients", async () => {
    const s = await session();
    await expectProblem(
      await s.api("/ClientAdmin/CreateNewClient", json(clientBody({ TemplateClientId: UNKNOWN }))),
      404,
      "Object(s) not found",
      new RegExp(UNKNOWN),
    );
    const template = await newPartnerClient(s);
    expect(
      (
        await s.api(
          "/ClientAdmin/CreateNewClient",
          json(clientBody({ TemplateClientId: template.Id })),
        )
      ).status,
    ).toBe(200);
  });

  it("read-only ClientAdmin may list clients but not create one (403)", async () => {
    const s = await session("production", { privileges: ["ClientAdmin"] });
    expect((await s.api("/ClientAdmin/Clients")).status).toBe(204);
    expect((await s.api("/ClientAdmin/CreateNewClient", json(clientBody()))).status).toBe(403);
  });

  it("adds the integration to a client: a fresh ClientKey once, 400 the second time, 404 for another client", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const added = await body(
      await s.api(`/ClientAdmin/AddIntegrationToClient/${String(c.Id)}`, { method: "POST" }),
      200,
    );
    expect(added).toEqual({
      ClientId: c.Id,
      ClientKey: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ClientName: c.ClientName,
      OrganizationNumber: c.OrganizationNumber,
    });
    await expectProblem(
      await s.api(`/ClientAdmin/AddIntegrationToClient/${String(c.Id)}`, { method: "POST" }),
      400,
      "Client validation error(s)",
      /already added/,
    );
    await expectProblem(
      await s.api(`/ClientAdmin/AddIntegrationToClient/${UNKNOWN}`, { method: "POST" }),
      404,
      "Object(s) not found",
    );
  });

  it("another sandbox client's partner clients are not this partner's (404)", async () => {
    const a = await session();
    const b = await session();
    const c = await newPartnerClient(a);
    await expectProblem(
      await b.api(`/ClientAdmin/${String(c.Id)}/AccessRoles`),
      404,
      "Object(s) not found",
    );
  });

  it("lists the access roles, Administrator with its fixed id; 404 for an unknown client, 400 for a malformed id", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const roles = await body<Row[]>(await s.api(`/ClientAdmin/${String(c.Id)}/AccessRoles`), 200);
    expect(roles).toContainEqual({ AccessRoleId: ADMIN_ROLE, AccessRoleName: "Administrator" });
    expect(roles.every((r) => Object.keys(r).sort().join() === "AccessRoleId,AccessRoleName")).toBe(
      true,
    );
    await expectProblem(
      await s.api(`/ClientAdmin/${UNKNOWN}/AccessRoles`),
      404,
      "Object(s) not found",
    );
    expect((await s.api("/ClientAdmin/not-a-uuid/AccessRoles")).status).toBe(400);
  });

  it("refuses every ClientAdmin operation without the privilege (403)", async () => {
    const s = await session("production", { privileges: [] });
    const calls: [string, RequestInit?][] = [
      ["/ClientAdmin/Clients"],
      ["/ClientAdmin/CreateNewClient", json(clientBody())],
      [`/ClientAdmin/AddIntegrationToClient/${UNKNOWN}`, { method: "POST" }],
      [`/ClientAdmin/${UNKNOWN}/AccessRoles`],
      [`/ClientAdmin/${UNKNOWN}/Users`],
      [`/ClientAdmin/${UNKNOWN}/Users/${UNKNOWN}`],
      [
        `/ClientAdmin/${UNKNOWN}/Users/${UNKNOWN}`,
        json(
          [{ op: "replace", path: "/AccessRoleId", value: ADMIN_ROLE }],
          "PATCH",
          "application/json-patch+json",
        ),
      ],
      [
        `/ClientAdmin/${UNKNOWN}/Users/Invite`,
        json({ AccessRoleId: ADMIN_ROLE, EmailAddress: "a@b.no", FirstName: "A", LastName: "B" }),
      ],
      [
        `/ClientAdmin/${UNKNOWN}/Users/AddPartnerUser`,
        json({ AccessRoleId: ADMIN_ROLE, PartnerUserId: UNKNOWN }),
      ],
      [`/ClientAdmin/${UNKNOWN}/UserAccessRoles`],
    ];
    for (const [path, init] of calls) expect((await s.api(path, init)).status, path).toBe(403);
  });
});

describe("ClientAdmin: users", () => {
  it("makes AdminUserId the new client's Administrator, listed and fetched by id", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const users = await body<Row[]>(await s.api(`/ClientAdmin/${String(c.Id)}/Users`), 200);
    const admin = {
      AccessRoleId: ADMIN_ROLE,
      EmailAddress: null,
      FirstName: null,
      FromDate: null,
      Id: ADMIN_USER,
      LastName: null,
      Status: "Active",
      ToDate: null,
    };
    expect(users).toEqual([admin]);
    expect(
      await body(await s.api(`/ClientAdmin/${String(c.Id)}/Users/${ADMIN_USER}`), 200),
    ).toEqual(admin);
  });

  it("answers 404 for an unknown user and for an unknown client", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    await expectProblem(
      await s.api(`/ClientAdmin/${String(c.Id)}/Users/${UNKNOWN}`),
      404,
      "Object(s) not found",
      /User with id/,
    );
    await expectProblem(
      await s.api(`/ClientAdmin/${UNKNOWN}/Users`),
      404,
      "Object(s) not found",
      /Client with id/,
    );
  });

  it("invites a user: InvitePending with no Id until accepted, listed on the client", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const invite = {
      AccessRoleId: ACCOUNTANT_ROLE,
      EmailAddress: "espen@example.no",
      FirstName: "Espen",
      LastName: "Askeladd",
      FromDate: "2024-01-01",
      InviteAsEmployee: true,
    };
    const u = await body(
      await s.api(`/ClientAdmin/${String(c.Id)}/Users/Invite`, json(invite)),
      200,
    );
    expect(u).toEqual({
      AccessRoleId: ACCOUNTANT_ROLE,
      EmailAddress: "espen@example.no",
      FirstName: "Espen",
      FromDate: "2024-01-01",
      Id: null,
      LastName: "Askeladd",
      Status: "InvitePending",
      ToDate: null,
    });
    expect(
      await body<Row[]>(await s.api(`/ClientAdmin/${String(c.Id)}/Users`), 200),
    ).toContainEqual(u);
  });

  it("refuses an invite without EmailAddress, naming it (400)", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const p = await body<{ errors: Record<string, string[]> }>(
      await s.api(
        `/ClientAdmin/${String(c.Id)}/Users/Invite`,
        json({ AccessRoleId: ADMIN_ROLE, FirstName: "A", LastName: "B" }),
      ),
      400,
    );
    expect(Object.keys(p.errors)).toEqual(["EmailAddress"]);
  });

  it("refuses an invite with an access role the client does not have (404) and a second invite of the same address (400)", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const invite = {
      AccessRoleId: ADMIN_ROLE,
      EmailAddress: "kari@example.no",
      FirstName: "Kari",
      LastName: "Nordmann",
    };
    await expectProblem(
      await s.api(
        `/ClientAdmin/${String(c.Id)}/Users/Invite`,
        json({ ...invite, AccessRoleId: UNKNOWN }),
      ),
      404,
      "Object(s) not found",
      /Access Role id/,
    );
    expect((await s.api(`/ClientAdmin/${String(c.Id)}/Users/Invite`, json(invite))).status).toBe(
      200,
    );
    await expectProblem(
      await s.api(
        `/ClientAdmin/${String(c.Id)}/Users/Invite`,
        json({ ...invite, EmailAddress: "KARI@example.no" }),
      ),
      400,
      "Users validation error(s)",
    );
  });

  it("refuses an invite to an unknown client (404)", async () => {
    const s = await session();
    const invite = {
      AccessRoleId: ADMIN_ROLE,
      EmailAddress: "kari@example.no",
      FirstName: "Kari",
      LastName: "Nordmann",
    };
    await expectProblem(
      await s.api(`/ClientAdmin/${UNKNOWN}/Users/Invite`, json(invite)),
      404,
      "Object(s) not found",
    );
  });

  it("adds a partner user (Active; Inactive before FromDate), once per client", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const add = (b: Row) => s.api(`/ClientAdmin/${String(c.Id)}/Users/AddPartnerUser`, json(b));
    const now = await body(
      await add({ AccessRoleId: ACCOUNTANT_ROLE, PartnerUserId: UNKNOWN }),
      200,
    );
    expect(now).toMatchObject({
      Id: UNKNOWN,
      AccessRoleId: ACCOUNTANT_ROLE,
      Status: "Active",
      FromDate: null,
      ToDate: null,
    });
    await expectProblem(
      await add({ AccessRoleId: ADMIN_ROLE, PartnerUserId: UNKNOWN }),
      400,
      "Users validation error(s)",
      /already on the client/,
    );
    const later = await body(
      await add({
        AccessRoleId: ACCOUNTANT_ROLE,
        PartnerUserId: crypto.randomUUID(),
        FromDate: "2999-01-01",
      }),
      200,
    );
    expect(later.Status).toBe("Inactive");
  });

  it("refuses a partner user without PartnerUserId, naming it (400), and on an unknown client (404)", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const p = await body<{ errors: Record<string, string[]> }>(
      await s.api(
        `/ClientAdmin/${String(c.Id)}/Users/AddPartnerUser`,
        json({ AccessRoleId: ADMIN_ROLE }),
      ),
      400,
    );
    expect(Object.keys(p.errors)).toEqual(["PartnerUserId"]);
    await expectProblem(
      await s.api(
        `/ClientAdmin/${UNKNOWN}/Users/AddPartnerUser`,
        json({ AccessRoleId: ADMIN_ROLE, PartnerUserId: UNKNOWN }),
      ),
      404,
      "Object(s) not found",
    );
  });

  it("patches a user's role and period; a past ToDate makes the user Inactive", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const patch = (ops: unknown[], user = ADMIN_USER) =>
      s.api(
        `/ClientAdmin/${String(c.Id)}/Users/${user}`,
        json(ops, "PATCH", "application/json-patch+json"),
      );
    const u = await body(
      await patch([
        { op: "replace", path: "/AccessRoleId", value: ACCOUNTANT_ROLE },
        { op: "add", path: "/ToDate", value: "2020-12-31" },
      ]),
      200,
    );
    expect(u).toMatchObject({
      Id: ADMIN_USER,
      AccessRoleId: ACCOUNTANT_ROLE,
      ToDate: "2020-12-31",
      Status: "Inactive",
    });
    expect(
      await body(await s.api(`/ClientAdmin/${String(c.Id)}/Users/${ADMIN_USER}`), 200),
    ).toEqual(u);
  });

  it("refuses a patch that removes the role, touches another field, names an unknown role, or a user not on the client", async () => {
    const s = await session();
    const c = await newPartnerClient(s);
    const patch = (ops: unknown[], user = ADMIN_USER) =>
      s.api(
        `/ClientAdmin/${String(c.Id)}/Users/${user}`,
        json(ops, "PATCH", "application/json-patch+json"),
      );
    await expectProblem(
      await patch([{ op: "remove", path: "/AccessRoleId" }]),
      400,
      "Users validation error(s)",
      /^Access Role id cannot be empty\.$/,
    );
    await expectProblem(
      await patch([{ op: "replace", path: "/Status", value: "Inactive" }]),
      400,
      "Users validation error(s)",
      /\/Status/,
    );
    await expectProblem(
      await patch([{ op: "replace", path: "/AccessRoleId", value: UNKNOWN }]),
      404,
      "Object(s) not found",
      /Access Role id/,
    );
    await expectProblem(
      await patch([{ op: "replace", path: "/AccessRoleId", value: ADMIN_ROLE }], UNKNOWN),
      404,
      "Object(s) not found",
    );
    expect(
      await body(await s.api(`/ClientAdmin/${String(c.Id)}/Users/${ADMIN_USER}`), 200),
    ).toMatchObject({ AccessRoleId: ADMIN_ROLE });
  });

  it("lists the partner clients a user is on, with the role on each; 404 for a user on none", async () => {
    const s = await session();
    const a = await newPartnerClient(s, { ClientName: "A AS" });
    const b = await newPartnerClient(s, { ClientName: "B AS" });
    const rows = await body<Row[]>(await s.api(`/ClientAdmin/${ADMIN_USER}/UserAccessRoles`), 200);
    expect(rows).toEqual([
      { AccessRoleId: ADMIN_ROLE, ClientId: a.Id, ClientName: "A AS" },
      { AccessRoleId: ADMIN_ROLE, ClientId: b.Id, ClientName: "B AS" },
    ]);
    await expectProblem(
      await s.api(`/ClientAdmin/${UNKNOWN}/UserAccessRoles`),
      404,
      "Object(s) not found",
    );
  });
});

describe("Client facts (read-only)", () => {
  it("lists the enterprise with EnterpriseDto's fields, the same on every call, and filters it", async () => {
    const s = await session();
    const list = await body<Row[]>(await s.api("/Enterprises"), 200);
    expect(list).toHaveLength(1);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual([
      "CreatedDateTimeOffset",
      "EmployerContributionRule",
      "EmployerContributionZone",
      "EnterpriseNo",
      "Id",
      "IsDefault",
      "LastChangedDateTimeOffset",
      "MailAddress",
      "Municipality",
      "Name",
    ]);
    expect(list[0]).toMatchObject({
      Id: expect.any(Number),
      IsDefault: true,
      EmployerContributionZone: "Zone1",
      MailAddress: { City: "Oslo" },
    });
    expect(await body(await s.api("/Enterprises"), 200)).toEqual(list);
    expect(
      (await s.api(`/Enterprises?enterpriseNos=${String(list[0]?.EnterpriseNo)}`)).status,
    ).toBe(200);
    expect((await s.api("/Enterprises?enterpriseNos=999999999")).status).toBe(204);
    expect(
      (await s.api("/Enterprises?createdDateTimeOffsetGreaterThan=2999-01-01T00:00:00Z")).status,
    ).toBe(204);
    await expectProblem(
      await s.api("/Enterprises?createdDateTimeOffsetGreaterThan=yesterday"),
      400,
      "Unable to cast object(s)",
    );
  });

  it("lists the client contacts with ClientContactDto's fields", async () => {
    const s = await session();
    const list = await body<Row[]>(await s.api("/ClientContacts"), 200);
    expect(list.length).toBeGreaterThan(0);
    for (const c of list)
      expect(Object.keys(c).sort()).toEqual([
        "Email",
        "FirstName",
        "Id",
        "LastName",
        "Phone",
        "Role",
        "YearOfBirth",
      ]);
    expect(list.map((c) => c.Role)).toContain("GeneralManager");
  });

  it("lists branding themes and gets one by id; 404 for an unknown id", async () => {
    const s = await session();
    const list = await body<Row[]>(await s.api("/BrandingThemes"), 200);
    expect(list[0]).toMatchObject({ Code: "STD", IsDefault: true, Id: expect.any(Number) });
    expect(await body(await s.api(`/BrandingThemes/${String(list[0]?.Id)}`), 200)).toEqual(list[0]);
    await expectProblem(await s.api("/BrandingThemes/1"), 404, "Object(s) not found");
  });

  it("lists the three custom dimension settings by ordinal", async () => {
    const s = await session();
    const list = await body<Row[]>(await s.api("/CustomDimensionSettings"), 200);
    expect(list.map((d) => d.Ordinal)).toEqual([1, 2, 3]);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(["IsActive", "Name", "Ordinal"]);
  });

  it("lists sub-ledger number series with their filters (type is case-sensitive) and gets one by uuid", async () => {
    const s = await session();
    const names = async (q: string) => {
      const res = await s.api(`/SubLedgerNumberSeries${q}`);
      return res.status === 204
        ? []
        : ((await res.json()) as Row[]).map((r) => r.SubLedgerNumberSeriesType);
    };
    expect((await names("")).sort()).toEqual(["Customer", "Employee", "Supplier"]);
    expect(await names("?subLedgerNumberSeriesType=Customer, Supplier")).toEqual([
      "Customer",
      "Supplier",
    ]);
    expect(await names("?subLedgerNumberSeriesType=customer")).toEqual([]);
    expect((await names("?generalLedgerAccountNos=1500-2400")).sort()).toEqual([
      "Customer",
      "Supplier",
    ]);
    expect(await names("?isDefault=false")).toEqual([]);
    const all = await body<Row[]>(await s.api("/SubLedgerNumberSeries"), 200);
    expect(await body(await s.api(`/SubLedgerNumberSeries/${String(all[0]?.Id)}`), 200)).toEqual(
      all[0],
    );
    await expectProblem(
      await s.api(`/SubLedgerNumberSeries/${UNKNOWN}`),
      404,
      "Object(s) not found",
    );
    expect((await s.api("/SubLedgerNumberSeries/12345")).status).toBe(400);
  });

  it("refuses each read-only group without its privilege (403)", async () => {
    const s = await session("production", { privileges: [] });
    for (const path of [
      "/Enterprises",
      "/ClientContacts",
      "/BrandingThemes",
      "/BrandingThemes/1",
      "/CustomDimensionSettings",
      "/SubLedgerNumberSeries",
      `/SubLedgerNumberSeries/${UNKNOWN}`,
      "/IncomingInvoices",
      `/IncomingInvoices/${UNKNOWN}`,
      "/Assignments",
      "/Assignments/1",
    ]) {
      expect((await s.api(path)).status, path).toBe(403);
    }
  });
});

describe("IncomingInvoices", () => {
  const invoice = (over: Row): Row => ({
    Id: crypto.randomUUID(),
    SupplierId: 1,
    SupplierNo: 20000,
    VoucherNo: 1,
    VoucherDate: "2026-01-10",
    DueDate: "2026-01-24",
    VoucherType: "IncomingInvoice",
    InvoiceNo: "1001",
    TotalAmount: 1250,
    NetAmount: 1000,
    Balance: -1250,
    CurrencyCode: "NOK",
    DepartmentCode: null,
    ProjectCode: null,
    CreatedDateTimeOffset: "2026-01-10T10:00:00.000Z",
    LastChangedDateTimeOffset: "2026-01-10T10:00:00.000Z",
    ...over,
  });

  it("answers 204 when there are none, and 404 for an unknown id", async () => {
    const s = await session();
    expect((await s.api("/IncomingInvoices")).status).toBe(204);
    await expectProblem(await s.api(`/IncomingInvoices/${UNKNOWN}`), 404, "Object(s) not found");
  });

  it("lists posted supplier invoices with the list item's fields, filters them, and gets one by id", async () => {
    const s = await session();
    const a = invoice({
      VoucherNo: 1,
      SupplierNo: 20000,
      DepartmentCode: "SALG",
      ProjectCode: "P1.2",
    });
    const b = invoice({ VoucherNo: 2, SupplierNo: 20001, VoucherDate: "2026-02-10", Balance: 0 });
    await putRecords(s, "IncomingInvoice", [a, b]);
    const list = await body<Row[]>(await s.api("/IncomingInvoices"), 200);
    expect(list).toHaveLength(2);
    expect(Object.keys(list[0] ?? {})).toHaveLength(38);
    const nos = async (q: string) => {
      const res = await s.api(`/IncomingInvoices?${q}`);
      return res.status === 204 ? [] : ((await res.json()) as Row[]).map((r) => r.VoucherNo);
    };
    expect(await nos("supplierNos=20001-")).toEqual([2]);
    expect(await nos("onlyUnpaidInvoices=true")).toEqual([1]);
    expect(await nos("fromDate=2026-02-01")).toEqual([2]);
    expect(await nos("departmentCodes=-1")).toEqual([2]);
    expect(await nos("projectCodes=P1")).toEqual([]);
    expect(await nos("projectCodes=P1&includeSubProject=true")).toEqual([1]);
    expect(await body(await s.api(`/IncomingInvoices/${String(a.Id)}`), 200)).toMatchObject({
      Id: a.Id,
      VoucherNo: 1,
      SupplierNo: 20000,
      IsReversed: null,
    });
    await expectProblem(
      await s.api("/IncomingInvoices?onlyUnpaidInvoices=yes"),
      400,
      "Unable to cast object(s)",
    );
  });
});

describe("Assignments", () => {
  it("answers 204 when there are none, and 404 for an unknown id", async () => {
    const s = await session();
    expect((await s.api("/Assignments")).status).toBe(204);
    await expectProblem(await s.api("/Assignments/12345"), 404, "Object(s) not found");
  });

  it("lists assignments without archived ones unless asked, filters them, and gets the general view", async () => {
    const s = await session();
    await putRecords(s, "Assignment", [
      {
        Id: 101,
        Description: "Årsoppgjør",
        Status: "Active",
        ManagerSubledgerAccountId: 7,
        CustomerSubledgerAccountId: 50,
        NoticePeriod: 3,
        SubjectToAudit: "Yes",
      },
      {
        Id: 102,
        Description: "Gammelt oppdrag",
        Status: "Archived",
        ManagerSubledgerAccountId: 8,
        CustomerSubledgerAccountId: 51,
        NoticePeriod: 1,
        SubjectToAudit: "No",
      },
    ]);
    const ids = async (q: string) => {
      const res = await s.api(`/Assignments${q}`);
      return res.status === 204 ? [] : ((await res.json()) as Row[]).map((r) => r.Id);
    };
    expect(await ids("")).toEqual([101]);
    expect(await ids("?status=archived")).toEqual([102]);
    expect(await ids("?status=draft,active,archived&managerSubLedgerAccountIds=8")).toEqual([102]);
    expect(await ids("?customerSubLedgerAccountIds=50")).toEqual([101]);
    const light = await body<Row[]>(await s.api("/Assignments"), 200);
    expect(light[0]).not.toHaveProperty("SubjectToAudit");
    expect(await body(await s.api("/Assignments/101"), 200)).toMatchObject({
      Id: 101,
      SubjectToAudit: "Yes",
      NoticePeriod: 3,
      AuditorId: null,
    });
    await expectProblem(await s.api("/Assignments?status=closed"), 400, "Unable to cast object(s)");
  });
});
