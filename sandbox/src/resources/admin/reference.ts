/**
 * @module
 * Read-only facts about the client: its enterprises, the contact persons of its organization
 * settings, branding themes, custom dimension settings and sub-ledger number series. None of these
 * can be written through API v2; they are set up in Go itself.
 */
import {
  fail,
  intParam,
  listReply,
  ok,
  problems,
  uuidParam,
  type Handler,
} from "../../engine/call";
import { filter, predicateOf } from "../../engine/filters";
import { shape, type Dto, type Store, type Stored } from "../../engine/store";
import { CLIENT_CONTACT_DTO_FIELDS } from "../fields/admin";
import {
  BRANDING_THEME_DTO_FIELDS,
  CUSTOM_DIMENSION_SETTINGS_DTO_FIELDS,
  ENTERPRISE_DTO_FIELDS,
  SUB_LEDGER_NUMBER_SERIES_DTO_FIELDS,
} from "../fields/reference";

/**
 * The client's enterprises (one, the default), stored on first use so their ids and timestamps stay
 * the same from call to call. Exported for payroll: an employment names its EnterpriseId.
 */
export function enterprises(store: Store, now: Date): Stored[] {
  const have = store.all("Enterprise");
  if (have.length > 0) return have;
  const at = now.toISOString();
  const id = store.nextId();
  store.put(
    "Enterprise",
    id,
    {
      CreatedDateTimeOffset: at,
      EmployerContributionRule: "GeneralIndustries",
      EmployerContributionZone: "Zone1",
      EnterpriseNo: "923456783",
      Id: id,
      IsDefault: true,
      LastChangedDateTimeOffset: at,
      MailAddress: {
        AddressLine1: "Storgata 1",
        AddressLine2: null,
        City: "Oslo",
        CountryCode: "NO",
        ZipCode: "0155",
      },
      Municipality: "0301",
      Name: "Hovedkontor",
    },
    { owner: "seed" },
  );
  return store.all("Enterprise");
}

/**
 * The contact persons of the client's organization settings, stored on first use for stable ids.
 */
function clientContacts(store: Store): Dto[] {
  if (store.all("ClientContact").length === 0) {
    const people = [
      {
        FirstName: "Kari",
        LastName: "Nordmann",
        Role: "GeneralManager",
        Email: "kari.nordmann@example.com",
        Phone: "22123456",
        YearOfBirth: "1979",
      },
      {
        FirstName: "Ola",
        LastName: "Nordmann",
        Role: "ChairmanOfTheBoard",
        Email: "ola.nordmann@example.com",
        Phone: "22123457",
        YearOfBirth: "1975",
      },
    ];
    for (const p of people) {
      const id = store.nextId();
      store.put("ClientContact", id, { ...p, Id: id }, { owner: "seed" });
    }
  }
  return store.all("ClientContact").map((r) => shape(CLIENT_CONTACT_DTO_FIELDS, r.dto));
}

/** `subLedgerNumberSeriesType` is case-sensitive, the spec says: `customer` matches nothing. */
function seriesTypeFilter(raw: string | undefined): (d: Dto) => boolean {
  const wanted = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return (d) => wanted.length === 0 || wanted.includes(String(d.SubLedgerNumberSeriesType));
}

export const referenceHandlers: Record<string, Handler> = {
  "GET /Enterprises": (ctx) => {
    const pred = predicateOf(
      [
        filter("enterpriseNos", "EnterpriseNo", "strings"),
        filter("createdDateTimeOffsetGreaterThan", "CreatedDateTimeOffset", "after"),
        filter("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset", "after"),
      ],
      ctx.q,
    );
    if (!pred.ok) return pred;
    const rows = enterprises(ctx.store, ctx.now)
      .map((r) => shape(ENTERPRISE_DTO_FIELDS, r.dto))
      .filter(pred.value);
    return listReply(ctx, rows, ENTERPRISE_DTO_FIELDS);
  },
  "GET /ClientContacts": (ctx) =>
    listReply(ctx, clientContacts(ctx.store), CLIENT_CONTACT_DTO_FIELDS),
  "GET /BrandingThemes": (ctx) =>
    listReply(
      ctx,
      ctx.store.all("BrandingTheme").map((r) => shape(BRANDING_THEME_DTO_FIELDS, r.dto)),
      BRANDING_THEME_DTO_FIELDS,
    ),
  "GET /BrandingThemes/{id}": (ctx) => {
    const id = intParam(ctx, "id");
    if (!id.ok) return id;
    const theme = ctx.store.get("BrandingTheme", id.value);
    return theme
      ? ok(shape(BRANDING_THEME_DTO_FIELDS, theme.dto))
      : fail(problems.notFound("BrandingTheme", id.value));
  },
  // Not a paged list in the spec (no ResourceParameters, no 204): always the three dimensions, by
  // ordinal.
  "GET /CustomDimensionSettings": (ctx) =>
    ok(
      ctx.store
        .all("CustomDimensionSettings")
        .map((r) => shape(CUSTOM_DIMENSION_SETTINGS_DTO_FIELDS, r.dto))
        .sort((a, b) => Number(a.Ordinal) - Number(b.Ordinal)),
    ),
  "GET /SubLedgerNumberSeries": (ctx) => {
    const pred = predicateOf(
      [
        filter("generalLedgerAccountNos", "GeneralLedgerAccountNo", "ranges"),
        filter("isDefault", "IsDefault", "bool"),
      ],
      ctx.q,
    );
    if (!pred.ok) return pred;
    const byType = seriesTypeFilter(ctx.q.get("subledgernumberseriestype"));
    const rows = ctx.store
      .all("SubLedgerNumberSeries")
      .map((r) => shape(SUB_LEDGER_NUMBER_SERIES_DTO_FIELDS, r.dto))
      .filter(pred.value)
      .filter(byType);
    return listReply(ctx, rows, SUB_LEDGER_NUMBER_SERIES_DTO_FIELDS);
  },
  "GET /SubLedgerNumberSeries/{id}": (ctx) => {
    const id = uuidParam(ctx, "id");
    if (!id.ok) return id;
    const series = ctx.store.get("SubLedgerNumberSeries", id.value);
    return series
      ? ok(shape(SUB_LEDGER_NUMBER_SERIES_DTO_FIELDS, series.dto))
      : fail(problems.notFound("SubLedgerNumberSeries", id.value));
  },
};
