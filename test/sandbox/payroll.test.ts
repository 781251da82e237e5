import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { advanceClock, control, fresh, json, session, tokenFor, api as apiAs } from "./helpers";

beforeEach(() => fresh());
afterEach(() => vi.useRealTimers());

type Api = Awaited<ReturnType<typeof session>>["api"];
type Dto = Record<string, unknown>;

/** Valid fødselsnumre (both mod-11 control digits right). */
const NIN = ["01019000083", "15058500027"] as const;

async function post(api: Api, path: string, body: unknown, expected = 201): Promise<Dto> {
  const res = await api(path, json(body));
  expect(res.status, await res.clone().text()).toBe(expected);
  return (await res.json()) as Dto;
}

/**
 * A record of another area the test needs; those answer 200 or 201 on create, as the API does per
 * resource.
 */
async function fixture(api: Api, path: string, body: unknown): Promise<Dto> {
  const res = await api(path, json(body));
  expect([200, 201], await res.clone().text()).toContain(res.status);
  return (await res.json()) as Dto;
}

const patch = (api: Api, path: string, ops: unknown) =>
  api(path, json(ops, "PATCH", "application/json-patch+json"));

const employee = (api: Api, extra: Dto = {}) =>
  post(api, "/Employees", { FirstName: "Kari", LastName: "Nordmann", ...extra });

const EMPLOYMENT_BODY = {
  EmploymentForm: "Permanent",
  EmploymentType: "Ordinary",
  FullTimeHoursPerWeek: 37.5,
  IsDefault: true,
  ProfessionCode: "2512101",
  StartDate: "2024-01-01",
  WorkingHoursArrangement: "NonShift",
};

/** An employment body under the client's (default) enterprise. */
async function employmentBody(api: Api, extra: Dto = {}): Promise<Dto> {
  const [enterprise] = (await (await api("/Enterprises")).json()) as { Id: number }[];
  return { ...EMPLOYMENT_BODY, EnterpriseId: enterprise?.Id, ...extra };
}

async function payItemIds(api: Api): Promise<string[]> {
  const res = await api("/PayItems");
  expect(res.status).toBe(200);
  return ((await res.json()) as { Id: string }[]).map((p) => p.Id);
}

describe("Employees", () => {
  it("creates an employee as a contact numbered from the employee series, with the API's field names", async () => {
    const s = await session();
    const e = await employee(s.api, {
      NationalIdNumber: NIN[0],
      Gender: "Female",
      MailAddress: { City: "Oslo", ZipCode: "0150" },
    });
    expect(e).toMatchObject({
      Id: expect.any(Number),
      Number: 1,
      FirstName: "Kari",
      LastName: "Nordmann",
      ContactGroupIds: [],
      IsArchived: false,
      MailAddress: { City: "Oslo", ZipCode: "0150", CountryCode: "NO", Id: expect.any(Number) },
      SubledgerAccountId: expect.any(Number),
      ContactCreatedDateTimeOffset: expect.any(String),
      EmployeeCreatedDateTimeOffset: expect.any(String),
      LastChangedDateTimeOffset: expect.any(String),
      // Without the special privilege the API answers 'hidden' for id numbers and Hidden for
      // gender.
      NationalIdNumber: "hidden",
      InternationalIdNumber: null,
      Gender: "Hidden",
    });
    expect((await employee(s.api)).Number).toBe(2);
    const got = await s.api(`/Employees/${e.Id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(e);
  });

  it("assigns Number from the series 1-9999 and refuses a number outside it or one in use", async () => {
    const s = await session();
    expect((await employee(s.api, { Number: 9999 })).Number).toBe(9999);
    expect((await employee(s.api)).Number).toBe(1);
    for (const Number of [10000, 20000]) {
      const res = await s.api("/Employees", json({ FirstName: "A", LastName: "B", Number }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ title: "Employee validation error(s)" });
    }
    const dup = await s.api("/Employees", json({ FirstName: "A", LastName: "B", Number: 9999 }));
    expect(dup.status).toBe(400);
  });

  it("refuses a duplicate ExternalImportReference or ExternalNumber, naming the contact that has it", async () => {
    const s = await session();
    const a = await employee(s.api, { ExternalImportReference: "HR-1", ExternalNumber: 501 });
    const ref = await s.api(
      "/Employees",
      json({ FirstName: "B", LastName: "B", ExternalImportReference: "hr-1" }),
    );
    expect(ref.status).toBe(400);
    expect(await ref.json()).toMatchObject({
      title: "Employee validation error(s)",
      detail: `ExternalImportReference is already in use. 'hr-1' is used on (contact) Id = ${String(a.Id)}.`,
    });
    const ext = await s.api(
      "/Employees",
      json({ FirstName: "B", LastName: "B", ExternalNumber: 501 }),
    );
    expect(ext.status).toBe(400);
    const b = await employee(s.api, { ExternalNumber: 502 });
    expect(
      (
        await patch(s.api, `/Employees/${String(b.Id)}`, [
          { op: "replace", path: "/ExternalNumber", value: 501 },
        ])
      ).status,
    ).toBe(400);
  });

  it("resolves Department and Location by Id or Code, Id winning over Code; an unknown code is a 404", async () => {
    const s = await session();
    const d1 = await fixture(s.api, "/Departments", { Code: "D1", Name: "Sales" });
    const d2 = await fixture(s.api, "/Departments", { Code: "D2", Name: "Ops" });
    const loc = await fixture(s.api, "/Locations", { Code: "OSL", Name: "Oslo" });
    const byCode = await employee(s.api, { DepartmentCode: "d1", LocationCode: "OSL" });
    expect(byCode).toMatchObject({
      DepartmentId: d1.Id,
      DepartmentCode: "D1",
      LocationId: loc.Id,
      LocationCode: "OSL",
    });
    const both = await employee(s.api, { DepartmentId: d2.Id, DepartmentCode: "D1" });
    expect(both).toMatchObject({ DepartmentId: d2.Id, DepartmentCode: "D2" });
    const unknown = await s.api(
      "/Employees",
      json({ FirstName: "A", LastName: "B", DepartmentCode: "Avdeling10" }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      detail: "Department with code = 'Avdeling10' not found.",
    });
    expect(
      (await s.api("/Employees", json({ FirstName: "A", LastName: "B", LocationId: 1 }))).status,
    ).toBe(404);
    expect(
      (
        await patch(s.api, `/Employees/${String(both.Id)}`, [
          { op: "replace", path: "/DepartmentCode", value: "D1" },
        ])
      ).status,
    ).toBe(400);
    const moved = await patch(s.api, `/Employees/${String(both.Id)}`, [
      { op: "replace", path: "/DepartmentId", value: d1.Id },
    ]);
    expect(await moved.json()).toMatchObject({ DepartmentId: d1.Id, DepartmentCode: "D1" });
  });

  it("filters by employeeNos, externalNos, externalImportReference, contactGroupIds, timestamps and id numbers", async () => {
    const s = await session();
    const group = await fixture(s.api, "/ContactGroups", { Name: "Drivers" });
    await employee(s.api, {
      FirstName: "A",
      ExternalNumber: 100,
      ExternalImportReference: "x-1",
      NationalIdNumber: NIN[0],
    });
    const b = await employee(s.api, {
      FirstName: "B",
      ExternalNumber: 200,
      ContactGroupIds: [group.Id],
      InternationalIdNumber: "P123",
    });
    await employee(s.api, {
      FirstName: "C",
      Number: 50,
      NationalIdNumber: NIN[1],
      InternationalIdNumber: "P456",
    });
    const names = async (q: string) => {
      const res = await s.api(`/Employees?${q}`);
      expect([200, 204], q).toContain(res.status);
      return res.status === 204
        ? []
        : ((await res.json()) as { FirstName: string }[]).map((x) => x.FirstName);
    };
    expect(await names("employeeNos=1, 40-")).toEqual(["A", "C"]);
    expect(await names("externalNos=150-")).toEqual(["B"]);
    expect(await names("externalImportReference=X-1")).toEqual(["A"]);
    expect(await names(`contactGroupIds=${String(group.Id)}`)).toEqual(["B"]);
    expect(await names(`nationalIdNumber=${NIN[1]}`)).toEqual(["C"]);
    expect(await names(`nationalIdNumbers=${NIN[0]},${NIN[1]}`)).toEqual(["A", "C"]);
    expect(await names("internationalIdNumber=p123")).toEqual(["B"]);
    expect(await names("internationalIdNumbers=P123, P456")).toEqual(["B", "C"]);
    // A later creation, by the clock the sandbox stamps it with.
    advanceClock(1000);
    await employee(s.api, { FirstName: "D" });
    const since = encodeURIComponent(
      String(b.EmployeeCreatedDateTimeOffset).replace("Z", "+00:00"),
    );
    expect(await names(`employeeCreatedDateTimeOffsetGreaterThan=${since}`)).toContain("D");
    expect(await names(`employeeCreatedDateTimeOffsetGreaterThan=${since}`)).not.toContain("A");
    expect(await names(`lastChangedDateTimeOffsetGreaterThan=${since}`)).not.toContain("B");
    expect((await s.api("/Employees?contactGroupIds=1-4")).status).toBe(400);
    expect((await s.api("/Employees?contactGroupIds=41345")).status).toBe(404);
    expect((await s.api("/Employees?employeeNos=abc")).status).toBe(400);
  });

  it("deletes an unused employee (200, then 404) and refuses one with an employment (409)", async () => {
    const s = await session();
    const gone = await employee(s.api);
    expect((await s.api(`/Employees/${String(gone.Id)}`, { method: "DELETE" })).status).toBe(200);
    expect((await s.api(`/Employees/${String(gone.Id)}`)).status).toBe(404);
    const busy = await employee(s.api);
    await post(s.api, `/Employees/${String(busy.Id)}/Employments`, await employmentBody(s.api));
    const res = await s.api(`/Employees/${String(busy.Id)}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ title: "Employee conflict" });
  });

  it("reads payroll and pension settings inherited from the client, and overrides them with PATCH", async () => {
    const s = await session();
    const e = await employee(s.api);
    const base = `/Employees/${String(e.Id)}`;
    const payroll = await s.api(`${base}/PayrollSettings`);
    expect(payroll.status).toBe(200);
    expect(await payroll.json()).toMatchObject({
      HolidayPayPercentage: 10.2,
      NumberOfHolidays: 25,
      RemunerationPeriodType: "Monthly",
    });
    const changed = await patch(s.api, `${base}/PayrollSettings`, [
      { op: "replace", path: "/HolidayPayPercentage", value: 12 },
    ]);
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect(await changed.json()).toMatchObject({ HolidayPayPercentage: 12, NumberOfHolidays: 25 });
    const pension = await patch(s.api, `${base}/PensionSettings`, [
      { op: "replace", path: "/FnoStatus", value: "sick" },
    ]);
    expect(await pension.json()).toMatchObject({ FnoStatus: "Sick", PensionAgeFno: 67 });
    const bad = await patch(s.api, `${base}/PensionSettings`, [
      { op: "replace", path: "/FnoStatus", value: "Bogus" },
    ]);
    expect(bad.status).toBe(400);
    expect((await s.api("/Employees/12345/PayrollSettings")).status).toBe(404);
  });

  it("chains hourly rates: each is valid until the next starts; validNow keeps today's", async () => {
    const s = await session();
    const e = await employee(s.api);
    const path = `/Employees/${String(e.Id)}/HourlyRates`;
    const old = await post(s.api, path, { ValidFromDate: "2020-01-01", CostRate: 400 });
    expect(old.ValidToDate).toBeNull();
    const next = await post(s.api, path, { ValidFromDate: "2021-01-01", CostRate: 450 });
    expect(next).toMatchObject({ Id: expect.any(Number), ValidToDate: null, CostRate: 450 });
    expect(await (await s.api(`${path}/${String(old.Id)}`)).json()).toMatchObject({
      ValidToDate: "2021-01-01",
    });
    expect(
      ((await (await s.api(`${path}?validNow=true`)).json()) as Dto[]).map((r) => r.Id),
    ).toEqual([next.Id]);
    expect((await s.api(path, json({ ValidFromDate: "2021-01-01" }))).status).toBe(400);
    expect((await s.api(`/Employees/1/HourlyRates`)).status).toBe(404);
  });

  it("sets payout bank accounts only to the employee's own contact bank accounts", async () => {
    const s = await session();
    const e = await employee(s.api);
    const other = await employee(s.api);
    const mine = await fixture(s.api, `/ContactBankAccounts/${String(e.Id)}`, {
      BankAccountNumber: "15030012345",
    });
    const theirs = await fixture(s.api, `/ContactBankAccounts/${String(other.Id)}`, {
      BankAccountNumber: "15030054321",
    });
    const ok = await patch(s.api, `/Employees/${String(e.Id)}/BankAccounts`, [
      { op: "add", path: "/SalaryBankAccountId", value: mine.Id },
    ]);
    expect(ok.status, await ok.clone().text()).toBe(200);
    expect(await ok.json()).toMatchObject({
      Id: e.Id,
      SalaryBankAccountId: mine.Id,
      ExpenseBankAccountId: null,
    });
    const wrong = await patch(s.api, `/Employees/${String(e.Id)}/BankAccounts`, [
      { op: "add", path: "/ExpenseBankAccountId", value: theirs.Id },
    ]);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      title: "Employee bank accounts validation error(s)",
    });
  });
});

describe("Employments", () => {
  it("creates employments with line counts, keeps one default, and counts lines as they come and go", async () => {
    const s = await session();
    const e = await employee(s.api);
    const body = await employmentBody(s.api);
    const first = await post(s.api, `/Employees/${String(e.Id)}/Employments`, body);
    expect(first).toMatchObject({
      EmployeeId: e.Id,
      IsDefault: true,
      SalaryCount: 0,
      FtePercentageCount: 0,
      EmploymentSpecification: "None",
      TaxRule: "Ordinary",
    });
    const second = await post(s.api, `/Employees/${String(e.Id)}/Employments`, {
      ...body,
      EmploymentForm: "temporary",
    });
    expect(
      await (await s.api(`/Employees/${String(e.Id)}/Employments/${String(first.Id)}`)).json(),
    ).toMatchObject({ IsDefault: false });
    const salary = await post(s.api, `/Employees/Employments/${String(second.Id)}/Salaries`, {
      FromDate: "2024-01-01",
      RemunerationType: "FixedWage",
      AnnualSalary: 585000,
    });
    expect(salary).toMatchObject({ EmploymentId: second.Id, EmployeeId: e.Id, HourlyRate: 300 });
    await post(s.api, `/Employees/Employments/${String(second.Id)}/FtePercentages`, {
      FromDate: "2024-01-01",
      FtePercentage: 80,
    });
    const leave = await post(s.api, `/Employees/Employments/${String(second.Id)}/Leaves`, {
      StartDate: "2024-03-01",
      LeavePercentage: 100,
      TypeOfLeave: "Maternity",
    });
    expect(leave.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      await (await s.api(`/Employees/${String(e.Id)}/Employments/${String(second.Id)}`)).json(),
    ).toMatchObject({ SalaryCount: 1, FtePercentageCount: 1, LeaveCount: 1 });
    expect(
      (
        await s.api(`/Employees/Employments/${String(second.Id)}/Leaves/${String(leave.Id)}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(200);
    const all = await s.api("/Employees/Employments?employmentForm=Temporary");
    expect(await all.json()).toEqual([
      {
        Id: second.Id,
        EmployeeId: e.Id,
        EmploymentForm: "Temporary",
        StartDate: "2024-01-01",
        EndDate: null,
        EnterpriseId: body.EnterpriseId,
        CreatedDateTimeOffset: expect.any(String),
        LastChangedDateTimeOffset: expect.any(String),
      },
    ]);
  });

  it("answers 404 'Employment not found error(s)' on the lines of an unknown employment", async () => {
    const s = await session();
    for (const segment of ["FtePercentages", "Salaries", "FixedSalaries", "Leaves", "Layoffs"]) {
      const res = await s.api(`/Employees/Employments/12345/${segment}`);
      expect(res.status, segment).toBe(404);
      expect(await res.json()).toMatchObject({
        title: "Employment not found error(s)",
        detail: "Employment with id = 12345 not found.",
      });
      expect(
        (await s.api(`/Employees/Employments/12345/${segment}`, json({}))).status,
        segment,
      ).toBe(400);
    }
    const e = await employee(s.api);
    const res = await s.api(
      `/Employees/Employments/12345/Layoffs`,
      json({ StartDate: "2024-01-01", LayoffPercentage: 50 }),
    );
    expect(res.status).toBe(404);
    expect((await s.api(`/Employees/${String(e.Id)}/Employments/12345`)).status).toBe(404);
    const noEnterprise = await s.api(
      `/Employees/${String(e.Id)}/Employments`,
      json({ ...(await employmentBody(s.api)), EnterpriseId: 1 }),
    );
    expect(noEnterprise.status).toBe(404);
  });

  it("refuses to delete the last salary line of an employment (409)", async () => {
    const s = await session();
    const e = await employee(s.api);
    const job = await post(
      s.api,
      `/Employees/${String(e.Id)}/Employments`,
      await employmentBody(s.api),
    );
    const a = await post(s.api, `/Employees/Employments/${String(job.Id)}/Salaries`, {
      FromDate: "2024-01-01",
      RemunerationType: "HourlyWage",
      HourlyRate: 250,
    });
    const b = await post(s.api, `/Employees/Employments/${String(job.Id)}/Salaries`, {
      FromDate: "2025-01-01",
      RemunerationType: "HourlyWage",
      HourlyRate: 270,
    });
    expect(
      (
        await s.api(`/Employees/Employments/${String(job.Id)}/Salaries/${String(a.Id)}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(200);
    const last = await s.api(`/Employees/Employments/${String(job.Id)}/Salaries/${String(b.Id)}`, {
      method: "DELETE",
    });
    expect(last.status).toBe(409);
    expect(await last.json()).toMatchObject({ title: "Employment conflict error(s)" });
  });
});

describe("Salary lines and pay items", () => {
  it("lists the seeded pay items in full, filters them, and answers 404 for an unknown id", async () => {
    const s = await session();
    const items = (await (await s.api("/PayItems?codes=100")).json()) as Dto[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      Code: "100",
      IsActive: true,
      Benefit: "Cash",
      BenefitDescription: "Fastloenn",
      HolidayPayBasis: true,
      TaxDeduction: "TaxTable",
    });
    expect(await (await s.api(`/PayItems/${String(items[0]?.Id)}`)).json()).toEqual(items[0]);
    const missing = await s.api("/PayItems/21d4ddf1-c8bf-4874-8879-b70468fa1032");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      title: "Object(s) not found",
      detail: "Pay item with id = 21d4ddf1-c8bf-4874-8879-b70468fa1032 not found.",
    });
    expect((await s.api("/PayItems?isActive=maybe")).status).toBe(400);
    const settings = await s.api("/PayrollSettings");
    expect(await settings.json()).toMatchObject({
      HolidayPayPercentage: 10.2,
      PensionSchemesCount: 1,
      RemunerationPeriod: "Monthly",
    });
    expect(await (await s.api("/PayrollSettings/PensionSchemes")).json()).toEqual([
      {
        IsActive: true,
        PensionProviderName: "Sandbox Pensjon AS",
        PensionProviderOrganizationNo: "999999999",
      },
    ]);
  });

  it("refuses a salary line whose pay item or employee does not exist (404)", async () => {
    const s = await session();
    const e = await employee(s.api);
    const [payItem] = await payItemIds(s.api);
    const res = await s.api(
      "/SalaryLines",
      json({ EmployeeId: e.Id, PayItemId: "21d4ddf1-c8bf-4874-8879-b70468fa1032", Amount: 100 }),
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      detail: "Pay item with id = 21d4ddf1-c8bf-4874-8879-b70468fa1032 not found.",
    });
    expect(
      (await s.api("/SalaryLines", json({ EmployeeId: 12345, PayItemId: payItem, Amount: 100 })))
        .status,
    ).toBe(404);
    const line = await post(s.api, "/SalaryLines", {
      EmployeeId: e.Id,
      PayItemId: String(payItem).toUpperCase(),
      Quantity: 7.5,
      Rate: 300,
      ExternalImportReference: "t-1",
    });
    expect(line).toMatchObject({
      PayItemId: payItem,
      IsLocked: false,
      IsDeletedByUser: false,
      CreatedDateTimeOffset: expect.any(String),
    });
    const dup = await s.api(
      "/SalaryLines",
      json({ EmployeeId: e.Id, PayItemId: payItem, ExternalImportReference: "t-1" }),
    );
    expect(dup.status).toBe(400);
    expect(await dup.json()).toMatchObject({ title: "Salary line validation error(s)" });
  });

  it("shows an integration only its own salary lines: another integration's line is a 404", async () => {
    const s = await session();
    const other = await control<{ clientKey: string }>(
      "POST",
      `/clients/demo/${s.clientId}/integrations`,
      { name: "other" },
      201,
    );
    const otherToken = await tokenFor("demo", other.clientKey);
    const theirs = (path: string, init?: RequestInit) => apiAs("demo", otherToken, path, init);
    const e = await employee(s.api);
    const [payItem] = await payItemIds(s.api);
    const line = await post(s.api, "/SalaryLines", {
      EmployeeId: e.Id,
      PayItemId: payItem,
      Amount: 1000,
    });
    const path = `/SalaryLines/${String(line.Id)}`;
    expect((await s.api(path)).status).toBe(200);
    expect((await theirs(path)).status).toBe(404);
    expect((await theirs("/SalaryLines")).status).toBe(204);
    expect((await patch(theirs, path, [{ op: "replace", path: "/Amount", value: 1 }])).status).toBe(
      404,
    );
    expect((await theirs(path, { method: "DELETE" })).status).toBe(404);
    const own = await post(theirs, "/SalaryLines", {
      EmployeeId: e.Id,
      PayItemId: payItem,
      Amount: 5,
    });
    expect(((await (await s.api("/SalaryLines")).json()) as Dto[]).map((l) => l.Id)).toEqual([
      line.Id,
    ]);
    expect(((await (await theirs("/SalaryLines")).json()) as Dto[]).map((l) => l.Id)).toEqual([
      own.Id,
    ]);
    const changed = await patch(s.api, path, [{ op: "replace", path: "/Amount", value: 1500 }]);
    expect(await changed.json()).toMatchObject({ Amount: 1500 });
    expect((await s.api(path, { method: "DELETE" })).status).toBe(200);
  });
});
