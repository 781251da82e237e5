/**
 * @module
 * Enums that several API v2 resources share. Each is case-insensitive on input and yields the API's
 * spelling (see `enumCI`); resource-specific enums live beside their resource.
 */
import { enumCI } from "./schema-kit";

/** Agriculture department of an account or line (`AgricultureDepartment`). */
export const AgricultureDepartment = enumCI([
  "None",
  "Finance",
  "Farming",
  "Forestry",
  "FurAnimals",
  "OtherIndustries",
  "Private",
]);

/** VAT return specification of a posting line (`VatReturnSpecification`). */
export const VatReturnSpecification = enumCI([
  "None",
  "Adjustment",
  "LossesOnClaims",
  "ReversalOfInputValueAddedTax",
  "Withdrawals",
  "AdjustmentVatCompensationRealProperty",
  "PurchasesEligibleForCompensation",
]);

/** Kind of a sales order or invoice line (`VoucherLineType`). */
export const VoucherLineType = enumCI(["Normal", "Text", "Summary", "InvoiceFee", "TotalHours"]);

/** Kind of an international id of a contact (`InternationalIdType`). */
export const InternationalIdType = enumCI([
  "PassportNumber",
  "NationalIdentityNumber",
  "TaxIdentificationNumber",
  "ValueAddedTaxIdentificationNumber",
]);

/** `Gender` of a person. */
export const Gender = enumCI(["Male", "Female", "Hidden"]);

/** UN/ECE unit codes the API accepts. */
const UNITS_OF_MEASURE = [
  "BX",
  "MTR",
  "KMT",
  "KGM",
  "EA",
  "LTR",
  "HUR",
  "DAY",
  "MTK",
  "MTQ",
  "TNE",
  "MON",
  "ANN",
  "QAN",
  "NL",
  "XRO",
  "XBA",
  "XPL",
  "XPC",
  "PR",
  "XCI",
  "XBG",
  "SET",
  "XTY",
  "XOF",
  "FTK",
  "KWH",
  "MWH",
  "LBR",
  "CMT",
  "DMT",
  "LM",
  "XPK",
  "GRM",
  "HGM",
  "XFL",
  "XBE",
  "E54",
  "MMT",
  "DAA",
  "H18",
  "MLT",
  "HLT",
  "DLT",
  "AK",
  "XCR",
  "E14",
  "MJ",
  "J57",
  "XJG",
  "XCT",
  "XSA",
  "XTU",
  "WEE",
  "XCA",
  "XCN",
  "NAR",
  "M4",
  "XVQ",
  "P1",
  "MFU",
  "KMK",
  "LM3",
  "FOT",
  "FM3",
  "E34",
  "E35",
] as const;
/** Unit of a product or line (`UnitOfMeasureType`), one of the UN/ECE codes above. */
export const UnitOfMeasureType = enumCI(UNITS_OF_MEASURE);
