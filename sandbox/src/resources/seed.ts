/**
 * @module
 * What every new sandbox client starts with, so it can take an order at once: a chart of accounts
 * after the Norwegian standard (NS 4102), the standard Norwegian VAT codes, currencies, payment and
 * delivery terms, sub-ledger number series for customers, suppliers and employees, a default
 * branding theme and product group, a bank account, pay items and the client's settings.
 */
import { ACCOUNT_TYPE_BY_CLASS, ACCOUNTS, CURRENCIES, VAT_CODES } from "../engine/chart";
import { SETTINGS } from "../engine/client-settings";
import type { Dto, Store } from "../engine/store";

/** Number series of the sub-ledgers: customers, suppliers, employees. */
export const SERIES = {
  Customer: { from: 10000, to: 19999, account: 1500 },
  Supplier: { from: 20000, to: 29999, account: 2400 },
  Employee: { from: 1, to: 9999, account: 2930 },
} as const;

/** Records that every client shares the shape of but not the ids of. */
export function seedClient(store: Store, now: Date): void {
  const at = now.toISOString();
  const year = now.getUTCFullYear();
  const put = (kind: string, dto: Dto, id: string | number = dto.Id as string | number) =>
    store.put(kind, id, dto, { owner: "seed" });
  for (const v of VAT_CODES) {
    put("VatCode", {
      Id: v.id,
      Code: v.code,
      Name: v.name,
      Description: v.name,
      Rate: v.rate,
      IsActive: true,
      IsCustom: false,
      BaseVatCodeId: null,
      ValidFrom: "2016-01-01",
      ValidTo: null,
      VatBasisRatio: null,
      VatBasisRatioValidFrom: null,
      VatBasisRatios: [],
    });
  }
  const accountIds = new Map<number, number>();
  for (const a of ACCOUNTS) {
    const id = store.nextId();
    accountIds.set(a.no, id);
    const vat = VAT_CODES.find((v) => v.code === a.vat);
    put("GeneralLedgerAccount", {
      Id: id,
      AccountNo: a.no,
      Name: a.name,
      GeneralLedgerAccountType: ACCOUNT_TYPE_BY_CLASS[Math.floor(a.no / 1000)] ?? "Expense",
      AgricultureDepartment: "None",
      CurrencyCode: null,
      DepartmentCode: null,
      DepartmentId: null,
      IsActive: true,
      IsDepartmentRequired: false,
      IsProjectRequired: false,
      IsVatCodeLocked: a.vat !== "0",
      LastChangedDateTimeOffset: at,
      Unit1: null,
      Unit2: null,
      VatCode: vat?.code ?? "0",
      VatCodeId: vat?.id ?? 1,
      VatReturnSpecification: "None",
    });
  }
  for (const c of CURRENCIES)
    put("Currency", { Code: c.code, IsActive: true, Notation: c.notation }, c.code);
  [
    { Name: "14 dager", CreditDays: 14, IsDefault: true },
    { Name: "10 dager", CreditDays: 10, IsDefault: false },
    { Name: "30 dager", CreditDays: 30, IsDefault: false },
    { Name: "Kontant", CreditDays: 0, IsDefault: false },
  ].forEach((t) =>
    put("PaymentTerm", {
      Id: store.nextId(),
      ...t,
      IsActive: true,
      CreatedDateTimeOffset: at,
      LastChangedDateTimeOffset: at,
    }),
  );
  [
    { Name: "Fritt levert", IsDefault: true },
    { Name: "Fritt fabrikk", IsDefault: false },
  ].forEach((t) =>
    put("DeliveryTerm", {
      Id: store.nextId(),
      ...t,
      CreatedDateTimeOffset: at,
      LastChangedDateTimeOffset: at,
    }),
  );
  for (const [type, s] of Object.entries(SERIES)) {
    put("SubLedgerNumberSeries", {
      Id: crypto.randomUUID(),
      Name: `${type}s`,
      SubLedgerNumberSeriesType: type,
      FromInclusive: s.from,
      ToInclusive: s.to,
      GeneralLedgerAccountNo: s.account,
      GeneralLedgerAccountId: accountIds.get(s.account),
      IsDefault: true,
      IsClientTrust: false,
    });
  }
  put("BrandingTheme", {
    Id: store.nextId(),
    Code: "STD",
    Name: "Standard",
    IsDefault: true,
    LanguageCode: "nb-NO",
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
  });
  put("ProductGroup", {
    Id: store.nextId(),
    Code: "STD",
    Name: "Standard",
    Description: "Default product group",
    IsArchived: false,
    ProductType: "Product",
    StandardSalesAccount: 3000,
    StandardSalesAccountId: accountIds.get(3000),
    StandardSalesAccountAgricultureDepartment: "None",
    OptionalSalesAccount: null,
    OptionalSalesAccountId: null,
    OptionalSalesAccountAgricultureDepartment: "None",
    UnitCost: null,
    UnitPrice: null,
    UnitOfMeasureCode: "EA",
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
    CreatedFromImportJournalId: null,
  });
  put("ClientBankAccount", {
    Id: store.nextId(),
    BankAccountNumber: "15030012345",
    BankName: "DNB Bank ASA",
    BicSwift: "DNBANOKKXXX",
    CountryCode: "NO",
    CurrencyCode: "NOK",
    GeneralLedgerAccountId: accountIds.get(1920),
    GeneralLedgerAccountNo: 1920,
    IsPrimaryAccount: true,
    IsActive: true,
    IsClientTrustAccount: false,
    AllowOverdraft: false,
    OverdraftLimit: null,
    ActiveIncomingPaymentService: false,
    ActiveOutgoingPaymentServices: false,
    AgricultureDepartment: "None",
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
  });
  for (let ordinal = 1; ordinal <= 3; ordinal++)
    put(
      "CustomDimensionSettings",
      { Ordinal: ordinal, Name: `Dimension ${ordinal}`, IsActive: ordinal === 1 },
      ordinal,
    );
  put(
    SETTINGS.financial,
    {
      ConversionDate: `${year}-01-01`,
      CurrencyCode: "NOK",
      CurrencyGainsAccountNo: 8060,
      CurrencyGainsAccountId: accountIds.get(8060),
      CurrencyLossAccountNo: 8160,
      CurrencyLossAccountId: accountIds.get(8160),
      FinancialYearEndMonth: "December",
      LastChangedDateTimeOffset: at,
      UseTrustAccountManagement: false,
    },
    "settings",
  );
  put(SETTINGS.lockDate, { LockDate: `${year - 1}-12-31` }, "settings");
  put(
    SETTINGS.vat,
    {
      AlternativeVatPeriod: null,
      AlternativeVatReturnFromYear: null,
      AlternativeVatReturnType: null,
      IsVatRegistered: true,
      ReportAlternativeVatReturn: false,
      ReportVatReturnManually: false,
      RoundingAccountAgricultureDepartment: "None",
      RoundingAccountId: accountIds.get(7790),
      RoundingAccountNo: 7790,
      UseVatCompensation: false,
      VatAlternativeGrouping: null,
      VatNumber: null,
      VatPeriod: "BiMonthly",
      VatReturnType: "GeneralIndustry",
    },
    "settings",
  );
  put("PayItem", {
    Id: crypto.randomUUID(),
    Code: "100",
    Name: "Fastlønn",
    AccountId: accountIds.get(5000),
    OppositeAccountId: accountIds.get(2930),
    Benefit: "Cash",
    IsActive: true,
    Rate: null,
    Percentage: null,
    PostingType: "EmployeeLedgerAccount",
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
  });
  put("PayItem", {
    Id: crypto.randomUUID(),
    Code: "200",
    Name: "Timelønn",
    AccountId: accountIds.get(5000),
    OppositeAccountId: accountIds.get(2930),
    Benefit: "Cash",
    IsActive: true,
    Rate: null,
    Percentage: null,
    PostingType: "EmployeeLedgerAccount",
    CreatedDateTimeOffset: at,
    LastChangedDateTimeOffset: at,
  });
  put(
    "PensionScheme",
    {
      IsActive: true,
      PensionProviderName: "Sandbox Pensjon AS",
      PensionProviderOrganizationNo: "999999999",
    },
    "1",
  );
}
