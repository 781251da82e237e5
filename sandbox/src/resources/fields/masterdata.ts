/**
 * @module
 * What the responses of the master-data resources (products, product groups, departments,
 * locations, projects, custom dimensions, delivery and payment terms, general ledger accounts)
 * carry beyond their POST bodies, which live in `shared/v2/masterdata.ts`.
 */

/** Set by Go on every stored record of most master-data resources. */
const STAMPS = [
  "CreatedDateTimeOffset",
  "CreatedFromImportJournalId",
  "Id",
  "LastChangedDateTimeOffset",
] as const;

/**
 * `ProductDto` fields a POST cannot set (note the lower-case `t` of `Datetime`, as the API spells
 * it).
 */
export const PRODUCT_DTO_FIELDS = [
  ...STAMPS,
  "StockAvailable",
  "StockOnHandLastChangedDatetimeOffset",
] as const;
/** `ProductGroupDto` fields a POST cannot set. */
export const PRODUCT_GROUP_DTO_FIELDS = STAMPS;
/** `DepartmentDto` fields a POST cannot set. */
export const DEPARTMENT_DTO_FIELDS = STAMPS;
/** `LocationDto` fields a POST cannot set (no import journal id on locations). */
export const LOCATION_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
/** `ProjectDto` fields a POST cannot set. */
export const PROJECT_DTO_FIELDS = STAMPS;
/** `CustomDimensionDto` fields a POST cannot set. */
export const CUSTOM_DIMENSION_DTO_FIELDS = STAMPS;
/** `DeliveryTermDto` fields a POST cannot set. */
export const DELIVERY_TERM_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
/** `PaymentTermDto` fields a POST cannot set. */
export const PAYMENT_TERM_DTO_FIELDS = [
  "CreatedDateTimeOffset",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
/** `GeneralLedgerAccountDto` fields a POST cannot set (no created stamp on accounts). */
export const GENERAL_LEDGER_ACCOUNT_DTO_FIELDS = [
  "GeneralLedgerAccountType",
  "Id",
  "LastChangedDateTimeOffset",
] as const;
