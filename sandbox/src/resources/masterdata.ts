/**
 * @module
 * Master data of a client: products and product groups, departments, locations, projects, custom
 * dimensions, delivery and payment terms, and the chart of accounts.
 */
import {
  CustomDimensionPost,
  DeliveryTermPost,
  DepartmentPost,
  GeneralLedgerAccountPost,
  LocationPost,
  PaymentTermPost,
  ProductGroupPost,
  ProductPost,
  ProjectPost,
} from "../../../shared/v2/masterdata";
import type { Ctx, Handler } from "../engine/call";
import { filter } from "../engine/filters";
import { resourceHandlers, type Ref, type ResourceSpec } from "../engine/resource";
import type { Dto } from "../engine/store";
import { problems } from "../lib/problem";
import { ACCOUNT_TYPE_BY_CLASS } from "../engine/chart";
import {
  CUSTOM_DIMENSION_DTO_FIELDS,
  DELIVERY_TERM_DTO_FIELDS,
  DEPARTMENT_DTO_FIELDS,
  GENERAL_LEDGER_ACCOUNT_DTO_FIELDS,
  LOCATION_DTO_FIELDS,
  PAYMENT_TERM_DTO_FIELDS,
  PRODUCT_DTO_FIELDS,
  PRODUCT_GROUP_DTO_FIELDS,
  PROJECT_DTO_FIELDS,
} from "./fields/masterdata";

const stampFilters = [
  filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
  filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
];

/** Sales accounts of products and groups: the account number, or its id (which wins). */
const salesAccountRefs: Ref[] = [
  {
    id: "StandardSalesAccountId",
    code: "StandardSalesAccount",
    kind: "GeneralLedgerAccount",
    entity: "GeneralLedgerAccount",
    by: "AccountNo",
  },
  {
    id: "OptionalSalesAccountId",
    code: "OptionalSalesAccount",
    kind: "GeneralLedgerAccount",
    entity: "GeneralLedgerAccount",
    by: "AccountNo",
  },
];

/** A record is in use when any stored record of `kinds` names it in `field`. */
function usedBy(kinds: readonly string[], field: string, what: string) {
  return (id: string, ctx: Ctx): string | null => {
    const lines = (d: Dto) => [d, ...(((d.SalesOrderLines ?? d.Lines) as Dto[] | undefined) ?? [])];
    return kinds.some((k) =>
      ctx.store.all(k).some((r) => lines(r.dto).some((x) => String(x[field]) === id)),
    )
      ? `It is used on ${what}.`
      : null;
  };
}

const productGroups: ResourceSpec = {
  path: "/ProductGroups",
  entity: "ProductGroup",
  post: ProductGroupPost,
  fields: PRODUCT_GROUP_DTO_FIELDS,
  filters: [
    filter("codes", "Code", "strings"),
    filter("names", "Name", "strings"),
    filter("isArchived", "IsArchived", "bool"),
    filter("type", "ProductType", "eq"),
    ...stampFilters,
  ],
  unique: ["Code"],
  refs: salesAccountRefs,
  derive: (d) => ({ ProductType: d.ProductType ?? "Product", IsArchived: d.IsArchived ?? false }),
  inUse: usedBy(["Product"], "ProductGroupId", "products"),
};

/**
 * The product's change stamps when its stock is written: a new `StockOnHand` moves
 * `StockOnHandLastChangedDatetimeOffset`, and a change of the stock alone leaves
 * `LastChangedDateTimeOffset` where it was, as the API says ("Changes in total stock does not
 * affect the product's last changed property"); its own filter finds it.
 */
function stockStamps(prior: Dto | undefined, next: Dto, ctx: Ctx): Dto {
  const same = (k: string) =>
    JSON.stringify(prior?.[k] ?? null) === JSON.stringify(next[k] ?? null);
  const moved = prior ? !same("StockOnHand") : next.StockOnHand != null;
  const alone =
    moved && prior && Object.keys(ProductPost.shape).every((k) => k === "StockOnHand" || same(k));
  return {
    LastChangedDateTimeOffset: alone
      ? prior.LastChangedDateTimeOffset
      : next.LastChangedDateTimeOffset,
    StockOnHandLastChangedDatetimeOffset: moved
      ? ctx.now.toISOString()
      : (prior?.StockOnHandLastChangedDatetimeOffset ?? null),
  };
}

const products: ResourceSpec = {
  path: "/Products",
  entity: "Product",
  post: ProductPost,
  fields: PRODUCT_DTO_FIELDS,
  createStatus: 200,
  filters: [
    filter("codes", "Code", "strings"),
    filter("names", "Name", "strings"),
    filter("productGroupCodes", "ProductGroupCode", "strings"),
    filter("type", "ProductType", "eq"),
    filter("isArchived", "IsArchived", "bool"),
    ...stampFilters,
    filter(
      "stockOnHandLastChangedDatetimeOffsetGreaterThan",
      "StockOnHandLastChangedDatetimeOffset",
      "after",
    ),
  ],
  unique: ["Code"],
  refs: [
    {
      id: "ProductGroupId",
      code: "ProductGroupCode",
      kind: "ProductGroup",
      entity: "ProductGroup",
    },
    ...salesAccountRefs,
  ],
  derive: (d, ctx) => {
    const stock = stockStamps(ctx.store.get("Product", String(d.Id))?.dto, d, ctx);
    // Without a group a product lands in the default group and inherits its sales account and
    // prices.
    const group =
      (d.ProductGroupId
        ? ctx.store.get("ProductGroup", String(d.ProductGroupId))
        : ctx.store.findBy("ProductGroup", "Code", "STD")
      )?.dto ?? {};
    return {
      Code: d.Code ?? String(ctx.store.next("productCode", 1001)),
      ProductGroupId: d.ProductGroupId ?? group.Id ?? null,
      ProductGroupCode: d.ProductGroupCode ?? group.Code ?? null,
      StandardSalesAccountId: d.StandardSalesAccountId ?? group.StandardSalesAccountId ?? null,
      StandardSalesAccount: d.StandardSalesAccount ?? group.StandardSalesAccount ?? null,
      UnitPrice: d.UnitPrice ?? group.UnitPrice ?? null,
      UnitCost: d.UnitCost ?? group.UnitCost ?? null,
      ProductType: d.ProductType ?? "Product",
      IsArchived: d.IsArchived ?? false,
      UnitOfMeasureCode: d.UnitOfMeasureCode ?? "EA",
      StockAvailable: d.IsStockItem ? (d.StockOnHand ?? 0) : null,
      ...stock,
    };
  },
  inUse: usedBy(["SalesOrder", "OutgoingInvoice"], "ProductId", "sales orders or invoices"),
};

const departments: ResourceSpec = {
  path: "/Departments",
  entity: "Department",
  post: DepartmentPost,
  fields: DEPARTMENT_DTO_FIELDS,
  filters: [
    filter("codes", "Code", "strings"),
    filter("isActive", "IsActive", "bool"),
    filter("name", "Name", "eq"),
    ...stampFilters,
  ],
  unique: ["Code"],
  refs: [
    {
      id: "ManagerEmployeeId",
      code: "ManagerEmployeeNo",
      kind: "Employee",
      entity: "Employee",
      by: "Number",
    },
  ],
  derive: (d) => ({ IsActive: d.IsActive ?? false }),
  inUse: usedBy(
    ["Customer", "Employee", "Project", "SalesOrder"],
    "DepartmentId",
    "contacts, projects or sales orders",
  ),
};

const locations: ResourceSpec = {
  path: "/Locations",
  entity: "Location",
  post: LocationPost,
  fields: LOCATION_DTO_FIELDS,
  createStatus: 200,
  filters: [
    filter("codes", "Code", "strings"),
    filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
  ],
  unique: ["Code"],
  derive: (d, ctx) => ({
    IsActive: d.IsActive ?? false,
    Code: d.Code ?? `L${ctx.store.next("locationCode", 1)}`,
  }),
  inUse: usedBy(
    ["Employee", "Project", "SalesOrder"],
    "LocationId",
    "employees, projects or sales orders",
  ),
};

/**
 * A sub-project's Code is its parent's code and its own joined by a dot (`P1` and `2` make `P1.2`),
 * as Go answers it; the body names only the sub-code, and a dot in a posted Code is refused.
 */
function projectCode(d: Dto, ctx: Ctx): unknown {
  const parent = d.ParentProjectId ? ctx.store.get("Project", String(d.ParentProjectId)) : null;
  return parent && typeof d.Code === "string" && d.Code !== ""
    ? `${String(parent.dto.Code)}.${d.Code}`
    : d.Code;
}

const projects: ResourceSpec = {
  path: "/Projects",
  entity: "Project",
  post: ProjectPost,
  fields: PROJECT_DTO_FIELDS,
  filters: [
    filter("projectCodes", "Code", "strings"),
    filter("customerNos", "CustomerNo", "ranges"),
    filter("departmentCodes", "DepartmentCode", "strings"),
    filter("status", "ProjectStatus", "eq"),
    filter("projectBillingMethod", "ProjectBillingMethod", "eq"),
    filter("projectManagerEmployeeNos", "ProjectManagerEmployeeNo", "ranges"),
    ...stampFilters,
  ],
  // Code is unique once joined with the parent's (see `check`): sub-code 2 may exist under P1 and
  // under P3.
  refs: [
    { id: "CustomerId", code: "CustomerNo", kind: "Customer", entity: "Customer", by: "Number" },
    { id: "DepartmentId", code: "DepartmentCode", kind: "Department", entity: "Department" },
    { id: "LocationId", code: "LocationCode", kind: "Location", entity: "Location" },
    { id: "ParentProjectId", code: "ParentProjectCode", kind: "Project", entity: "Project" },
    { id: "PaymentTermId", kind: "PaymentTerm", entity: "PaymentTerm" },
    {
      id: "DeliveryTermId",
      code: "DeliveryTerm",
      kind: "DeliveryTerm",
      entity: "DeliveryTerm",
      by: "Name",
    },
    {
      id: "BrandingThemeId",
      code: "BrandingThemeCode",
      kind: "BrandingTheme",
      entity: "BrandingTheme",
    },
    {
      id: "ProjectManagerEmployeeId",
      code: "ProjectManagerEmployeeNo",
      kind: "Employee",
      entity: "Employee",
      by: "Number",
    },
  ],
  derive: (d, ctx) => ({
    Code: projectCode(d, ctx),
    AllowAllActivities: d.AllowAllActivities ?? true,
    AllowAllEmployees: d.AllowAllEmployees ?? true,
    AttachExpenseVouchersWhenBilling: d.AttachExpenseVouchersWhenBilling ?? false,
    DenyTimeTracking: d.DenyTimeTracking ?? false,
    ProjectStatus: d.ProjectStatus ?? "Active",
    IsActive: d.IsActive ?? true,
  }),
  // A JSON Patch works on the sub-code alone; `derive` joins it again with whichever parent the
  // result names.
  writable: (d) =>
    d.ParentProjectId && typeof d.Code === "string"
      ? { ...d, Code: d.Code.slice(d.Code.indexOf(".") + 1) }
      : d,
  check: (d, ctx, self) => {
    const code = typeof d.Code === "string" ? d.Code.toLowerCase() : "";
    const taken =
      code === ""
        ? undefined
        : ctx.store
            .all("Project")
            .find(
              (r) => r.id !== (self ?? String(d.Id)) && String(r.dto.Code).toLowerCase() === code,
            );
    if (taken)
      return problems.validation(
        "Project",
        `Code is already in use. '${String(d.Code)}' is used on (project) Id = ${taken.id}.`,
      );
    if (!d.ParentProjectId) return null;
    if (self !== null && String(d.ParentProjectId) === self)
      return problems.validation("Project", "A project cannot be its own parent.");
    const parent = ctx.store.get("Project", String(d.ParentProjectId));
    if (parent?.dto.ParentProjectId) {
      return problems.validation(
        "Project",
        `Project ${String(parent.dto.Code)} is a sub project; a sub project cannot have sub projects of its own.`,
      );
    }
    if (
      self !== null &&
      ctx.store.all("Project").some((p) => String(p.dto.ParentProjectId) === self)
    ) {
      return problems.validation(
        "Project",
        "A project with sub projects cannot become a sub project.",
      );
    }
    return null;
  },
  inUse: (id, ctx) =>
    usedBy(["Project"], "ParentProjectId", "sub projects")(id, ctx) ??
    usedBy(["SalesOrder"], "ProjectId", "sales orders")(id, ctx),
};

const customDimensions: ResourceSpec = {
  path: "/CustomDimensions",
  entity: "CustomDimension",
  post: CustomDimensionPost,
  fields: CUSTOM_DIMENSION_DTO_FIELDS,
  filters: [
    filter("codes", "Code", "strings"),
    filter("ordinal", "Ordinal", "strings"),
    filter("externalImportReference", "ExternalImportReference", "strings"),
    ...stampFilters,
  ],
  derive: (d, ctx) => ({
    IsActive: d.IsActive ?? true,
    Code: d.Code ?? String(ctx.store.next(`dim${String(d.Ordinal)}Code`, 1)),
  }),
  check: (d, ctx, self) => {
    // Codes and references are unique within one dimension (ordinal); the same code may exist in
    // another.
    const twin = ctx.store
      .all("CustomDimension")
      .find(
        (r) =>
          r.id !== (self ?? String(d.Id)) &&
          r.dto.Ordinal === d.Ordinal &&
          (r.dto.Code === d.Code ||
            (d.ExternalImportReference &&
              r.dto.ExternalImportReference === d.ExternalImportReference)),
      );
    return twin
      ? problems.validation(
          "CustomDimension",
          `Code or ExternalImportReference is already in use in dimension ${String(d.Ordinal)} (Id = ${twin.id}).`,
        )
      : null;
  },
};

const deliveryTerms: ResourceSpec = {
  path: "/DeliveryTerms",
  entity: "DeliveryTerm",
  post: DeliveryTermPost,
  fields: DELIVERY_TERM_DTO_FIELDS,
  derive: (d) => ({ IsDefault: d.IsDefault ?? false }),
  inUse: usedBy(["Customer", "SalesOrder"], "DeliveryTermId", "customers or sales orders"),
};

const paymentTerms: ResourceSpec = {
  path: "/PaymentTerms",
  entity: "PaymentTerm",
  post: PaymentTermPost,
  fields: PAYMENT_TERM_DTO_FIELDS,
  derive: (d) => ({ IsActive: d.IsActive ?? true, IsDefault: d.IsDefault ?? false }),
  inUse: usedBy(["Customer", "SalesOrder"], "PaymentTermId", "customers or sales orders"),
};

const generalLedgerAccounts: ResourceSpec = {
  path: "/GeneralLedgerAccounts",
  entity: "GeneralLedgerAccount",
  post: GeneralLedgerAccountPost,
  fields: GENERAL_LEDGER_ACCOUNT_DTO_FIELDS,
  filters: [
    filter("accountNos", "AccountNo", "ranges"),
    filter("agricultureDepartments", "AgricultureDepartment", "strings"),
    filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
  ],
  unique: ["AccountNo"],
  refs: [
    { id: "VatCodeId", code: "VatCode", kind: "VatCode", entity: "VatCode" },
    { id: "DepartmentId", code: "DepartmentCode", kind: "Department", entity: "Department" },
  ],
  derive: (d) => ({
    GeneralLedgerAccountType:
      ACCOUNT_TYPE_BY_CLASS[Math.floor(Number(d.AccountNo) / 1000)] ?? "Expense",
    AgricultureDepartment: d.AgricultureDepartment ?? "None",
    VatReturnSpecification: d.VatReturnSpecification ?? "None",
  }),
  check: (d, ctx, self) => {
    const before = self === null ? null : ctx.store.get("GeneralLedgerAccount", self);
    return before && before.dto.AccountNo !== d.AccountNo
      ? problems.validation(
          "GeneralLedgerAccount",
          "AccountNo cannot be changed once the account exists.",
        )
      : null;
  },
  inUse: (id, ctx) =>
    ctx.store.all("Posting").some((p) => String(p.dto.AccountId) === id)
      ? "It has postings."
      : null,
};

export const masterdataHandlers: Record<string, Handler> = {
  ...resourceHandlers(productGroups),
  ...resourceHandlers(products),
  ...resourceHandlers(departments),
  ...resourceHandlers(locations),
  ...resourceHandlers(projects),
  ...resourceHandlers(customDimensions),
  ...resourceHandlers(deliveryTerms),
  ...resourceHandlers(paymentTerms),
  ...resourceHandlers(generalLedgerAccounts),
};
