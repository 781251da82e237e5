/**
 * @module
 * Master data of API v2: the POST bodies of products, product groups, departments, locations,
 * projects, custom dimensions, delivery and payment terms and general ledger accounts. Shared by
 * the gateway and the sandbox so both refuse the same body in the same words. Rules that need
 * stored data (uniqueness of codes, references that must exist, sub-project codes) are the
 * sandbox's job, and so are the response shapes (`sandbox/src/resources/fields/`).
 */
import { z } from "zod";
import { AgricultureDepartment, UnitOfMeasureType, VatReturnSpecification } from "./enums";
import { currencyCode, enumCI, int64, isoDate, opt } from "./schema-kit";

/** `ProductType`; a product is created as `Product` when none is given. */
const ProductType = enumCI(["Product", "Service"]);

/** `ProjectStatusType` (`Tentative` means on hold). */
const ProjectStatusType = enumCI(["Tentative", "Active", "Archived", "NotStarted", "Complete"]);

/** `ProjectBillingMethod`: how a project is billed to its customer. */
const ProjectBillingMethod = enumCI(["FixedPrice", "Time", "TimeAndExpenses"]);

/** `BillableRateSpecification`: where the hourly rate comes from when billing. */
const BillableRateSpecification = enumCI(["Activity", "Employee", "Project"]);

/**
 * A field the spec marks required: present, not null, and not blank (the API keeps the spec's
 * `nullable: true` from the C# model, but a blank name is of no use to anyone).
 */
function requiredText(max?: number) {
  const base = max === undefined ? z.string() : z.string().max(max);
  return base.refine((v) => v.trim() !== "", { message: "must not be blank" });
}

type Issues = z.core.$RefinementCtx;

/** Reports `field` as set where the API only accepts it under a condition. */
function onlyWhen(ctx: Issues, field: string, condition: string) {
  ctx.addIssue({
    code: "custom",
    path: [field],
    message: `${field} can only be set when ${condition}`,
  });
}

// --- Products and product groups -------------------------------------------------------------

/**
 * Sales accounts and prices a product inherits from its group (and a group from the client's sales
 * settings) when left null. An `…Id` wins over the account number when both are sent.
 */
const salesDefaults = {
  Description: opt(z.string()),
  IsArchived: opt(z.boolean()),
  OptionalSalesAccount: opt(int64),
  OptionalSalesAccountAgricultureDepartment: opt(AgricultureDepartment),
  OptionalSalesAccountId: opt(int64),
  ProductType: opt(ProductType),
  StandardSalesAccount: opt(int64),
  StandardSalesAccountAgricultureDepartment: opt(AgricultureDepartment),
  StandardSalesAccountId: opt(int64),
  UnitCost: opt(z.number()),
  UnitOfMeasureCode: opt(UnitOfMeasureType),
  UnitPrice: opt(z.number()),
};

/** `ProductGroupPostDto`: nothing is required, not even the name. */
export const ProductGroupPost = z.strictObject({
  ...salesDefaults,
  Code: opt(z.string().max(200)),
  Name: opt(z.string().max(400)),
});
export type ProductGroupPost = z.output<typeof ProductGroupPost>;

/** `ProductPostDto`. Without a group the product lands in the client's default product group. */
export const ProductPost = z
  .strictObject({
    ...salesDefaults,
    Code: opt(z.string().max(100)),
    Gtin: opt(z.string()),
    IsStockItem: opt(z.boolean()),
    Name: requiredText(400),
    ProductGroupCode: opt(z.string()),
    ProductGroupId: opt(int64),
    StockOnHand: opt(z.number()),
  })
  .superRefine((p, ctx) => {
    if (p.IsStockItem === false && p.StockOnHand != null)
      onlyWhen(ctx, "StockOnHand", "IsStockItem is not false (Go keeps no stock for this product)");
  });
export type ProductPost = z.output<typeof ProductPost>;

// --- Departments and locations ---------------------------------------------------------------

/** `DepartmentPostDto`. IsActive defaults to false: send true to make the department usable. */
export const DepartmentPost = z.strictObject({
  Code: opt(z.string()),
  IsActive: opt(z.boolean()),
  ManagerEmployeeId: opt(int64),
  ManagerEmployeeNo: opt(int64),
  Name: requiredText(),
});
export type DepartmentPost = z.output<typeof DepartmentPost>;

/** `LocationPostDto`. IsActive defaults to false; Go assigns a code when none is sent. */
export const LocationPost = z.strictObject({
  Code: opt(z.string()),
  IsActive: opt(z.boolean()),
  Name: requiredText(),
});
export type LocationPost = z.output<typeof LocationPost>;

// --- Projects ---------------------------------------------------------------------------------

/**
 * `ProjectPostDto`. A sub-project is created by naming its parent (ParentProjectId, or
 * ParentProjectCode); its Code is then the sub-code only, and Go answers with `parent.sub`. That is
 * why a dot is refused in Code: Go reserves it as the separator.
 */
export const ProjectPost = z
  .strictObject({
    AllowAllActivities: opt(z.boolean()),
    AllowAllEmployees: opt(z.boolean()),
    AttachExpenseVouchersWhenBilling: opt(z.boolean()),
    BillableRate: opt(z.number().positive()),
    BillableRateSpecification: opt(BillableRateSpecification),
    BrandingThemeCode: opt(z.string()),
    BrandingThemeId: opt(int64),
    BudgetedBillableRate: opt(z.number()),
    BudgetedCostOfGoods: opt(z.number()),
    BudgetedHours: opt(z.number()),
    BudgetedOtherOperatingExpenses: opt(z.number()),
    BudgetedPayrollExpenses: opt(z.number()),
    BudgetedRevenueHours: opt(z.number()),
    BudgetedTotalRevenue: opt(z.number()),
    Code: opt(
      z.string().refine((c) => !c.includes("."), {
        message: "must not contain '.': Go reserves it to join a parent and a sub-project code",
      }),
    ),
    ContactPersonId: opt(int64),
    ContractNo: opt(z.string()),
    CustomerId: opt(int64),
    CustomerNo: opt(int64),
    DeliveryTerm: opt(z.string()),
    DeliveryTermId: opt(int64),
    DenyTimeTracking: opt(z.boolean()),
    DepartmentCode: opt(z.string()),
    DepartmentId: opt(int64),
    EndDate: opt(isoDate),
    ExpenseMarkupDescription: opt(z.string()),
    ExpenseMarkupEnabled: opt(z.boolean()),
    ExpenseMarkupFactor: opt(z.number().nonnegative()),
    ExternalNumber: opt(int64),
    FixedPrice: opt(z.number()),
    HourlyRateMarkupDescription: opt(z.string()),
    HourlyRateMarkupEnabled: opt(z.boolean()),
    HourlyRateMarkupFactor: opt(z.number()),
    IsActive: opt(z.boolean()),
    IsBillable: opt(z.boolean()),
    IsInternal: opt(z.boolean()),
    LocationCode: opt(z.string()),
    LocationId: opt(int64),
    Name: requiredText(),
    ParentProjectCode: opt(z.string()),
    ParentProjectId: opt(int64),
    PaymentTermId: opt(int64),
    PaymentTerms: opt(z.int()),
    Progress: opt(z.int().min(0).max(100)),
    ProjectBillingMethod: opt(ProjectBillingMethod),
    ProjectManagerEmployeeId: opt(int64),
    ProjectManagerEmployeeNo: opt(int64),
    ProjectStatus: opt(ProjectStatusType),
    PurchaseOrderNo: opt(z.string()),
    StartDate: opt(isoDate),
  })
  .superRefine((p, ctx) => {
    if (p.BillableRate != null) {
      // The server default for either setting is not documented, so both must be stated.
      if (p.ProjectBillingMethod !== "Time" && p.ProjectBillingMethod !== "TimeAndExpenses") {
        onlyWhen(ctx, "BillableRate", "ProjectBillingMethod is Time or TimeAndExpenses");
      }
      if (p.BillableRateSpecification !== "Project")
        onlyWhen(ctx, "BillableRate", "BillableRateSpecification is Project");
    }
    if (p.ExpenseMarkupFactor != null && p.ExpenseMarkupEnabled !== true)
      onlyWhen(ctx, "ExpenseMarkupFactor", "ExpenseMarkupEnabled is true");
    if (p.HourlyRateMarkupFactor != null && p.HourlyRateMarkupEnabled !== true)
      onlyWhen(ctx, "HourlyRateMarkupFactor", "HourlyRateMarkupEnabled is true");
    if (p.ContactPersonId != null && p.CustomerId == null && p.CustomerNo == null)
      onlyWhen(ctx, "ContactPersonId", "the project has a customer (CustomerId or CustomerNo)");
  });
export type ProjectPost = z.output<typeof ProjectPost>;

// --- Custom dimensions, delivery and payment terms -------------------------------------------

/**
 * `CustomDimensionPostDto`: Ordinal picks the set (1 = Dim1, 2 = Dim2, 3 = Dim3). IsActive defaults
 * to true.
 */
export const CustomDimensionPost = z.strictObject({
  Code: opt(z.string().max(40)),
  ExternalImportReference: opt(z.string().max(50)),
  IsActive: opt(z.boolean()),
  Name: requiredText(200),
  Ordinal: z.int().min(1).max(3),
});
export type CustomDimensionPost = z.output<typeof CustomDimensionPost>;

/** `DeliveryTermPostDto`. The name is free text (Go's own set is the incoterms). */
export const DeliveryTermPost = z.strictObject({
  IsDefault: opt(z.boolean()),
  Name: requiredText(128),
});
export type DeliveryTermPost = z.output<typeof DeliveryTermPost>;

/** `PaymentTermPostDto`. IsActive defaults to true. */
export const PaymentTermPost = z.strictObject({
  CreditDays: z.int(),
  IsActive: opt(z.boolean()),
  IsDefault: opt(z.boolean()),
  Name: requiredText(128),
});
export type PaymentTermPost = z.output<typeof PaymentTermPost>;

// --- General ledger accounts -----------------------------------------------------------------

/** `GeneralLedgerAccountPostDto`: AccountNo, IsActive, Name and a VAT code are required. */
export const GeneralLedgerAccountPost = z
  .strictObject({
    AccountNo: int64,
    AgricultureDepartment: opt(AgricultureDepartment),
    CurrencyCode: opt(currencyCode),
    DepartmentCode: opt(z.string()),
    DepartmentId: opt(int64),
    IsActive: z.boolean(),
    IsDepartmentRequired: opt(z.boolean()),
    IsProjectRequired: opt(z.boolean()),
    IsVatCodeLocked: opt(z.boolean()),
    Name: requiredText(),
    Unit1: opt(UnitOfMeasureType),
    Unit2: opt(UnitOfMeasureType),
    VatCode: opt(z.string()),
    VatCodeId: opt(z.int()),
    VatReturnSpecification: opt(VatReturnSpecification),
  })
  .superRefine((a, ctx) => {
    if (a.VatCodeId == null && !a.VatCode?.trim()) {
      ctx.addIssue({
        code: "custom",
        path: ["VatCode"],
        message: "VatCode or VatCodeId is required when creating a general ledger account",
      });
    }
  });
export type GeneralLedgerAccountPost = z.output<typeof GeneralLedgerAccountPost>;
