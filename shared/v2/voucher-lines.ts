/**
 * @module
 * The fields every voucher line of API v2 shares, posted (`vouchers.ts`) or draft
 * (`journal-entries.ts`): its dimensions, description, product and quantities, and its currency;
 * and the accrual that a journal-entry line and a sales-order line (`sales.ts`) may both carry.
 */
import { z } from "zod";
import { AgricultureDepartment } from "./enums";
import { currencyCode, int64, isoDate, opt } from "./schema-kit";

/**
 * The dimensions every voucher line (and journal-entry header) may carry. On journal entries `-1`
 * means "none" and overrides the header, so negative ids are allowed.
 */
export const dimensionFields = {
  DepartmentId: opt(int64),
  Dim1Id: opt(int64),
  Dim2Id: opt(int64),
  Dim3Id: opt(int64),
  LocationId: opt(int64),
  ProjectId: opt(int64),
};

/** Fields every line DTO shares, posted or draft. */
export const lineFields = {
  ...dimensionFields,
  Description: opt(z.string()),
  ProductId: opt(int64),
  Quantity: opt(z.number()),
  Quantity2: opt(z.number()),
};

/** A line may be in another currency than its voucher; the rate is "always base 1". */
export const lineCurrencyFields = {
  CurrencyCode: opt(currencyCode),
  CurrencyExchangeRate: opt(z.number().positive()),
};

/**
 * The balance side of an accrual (periodisering), its start and whether it is on; the amount is
 * spread from FromDate to ToDate. Each accrual adds ToDate (and a sales-order line its result
 * side).
 */
export const accrualFields = {
  BalanceAccountAgricultureDepartment: AgricultureDepartment.optional(),
  BalanceAccountId: opt(int64),
  BalanceAccountNo: opt(int64),
  FromDate: isoDate.optional(),
  IsActive: z.boolean().optional(),
};
