/**
 * @module
 * Read-only reference data and settings of a client: currencies and their rates, VAT codes, and the
 * financial, lock-date, VAT and organization settings.
 */
import { bindingProblem, fail, listReply, ok, requiredQuery, type Handler } from "../engine/call";
import { filter, predicateOf } from "../engine/filters";
import { nokRate } from "../engine/ledger";
import { problems } from "../lib/problem";
import { shape } from "../engine/store";
import { ORGANIZATION_SETTING_DTO_FIELDS } from "./fields/reference";
import { SETTINGS } from "../engine/client-settings";

/** A settings singleton as stored by the seed. */
function settings(kind: string): Handler {
  return (ctx) => {
    const r = ctx.store.get(kind, "settings");
    return r ? ok(r.dto) : fail(problems.notFound(kind, "settings"));
  };
}

export const referenceHandlers: Record<string, Handler> = {
  "GET /Currencies": (ctx) => {
    const pred = predicateOf(
      [filter("currencyCode", "Code", "strings"), filter("isActive", "IsActive", "bool")],
      ctx.q,
    );
    return pred.ok
      ? listReply(
          ctx,
          ctx.store
            .all("Currency")
            .map((r) => r.dto)
            .filter(pred.value),
        )
      : pred;
  },
  /** One pair on one date; the sandbox's rates are a fixed table, the same on every date. */
  "GET /CurrencyRates": (ctx) => {
    const from = requiredQuery(ctx, "fromCurrency");
    if (!from.ok) return from;
    const to = requiredQuery(ctx, "toCurrency");
    if (!to.ok) return to;
    const on = requiredQuery(ctx, "asOnDate");
    if (!on.ok) return on;
    if (Number.isNaN(Date.parse(on.value))) return fail(bindingProblem("asOnDate", on.value));
    const a = nokRate(from.value);
    const b = nokRate(to.value);
    if (a === null)
      return fail({
        status: 404,
        title: "Object(s) not found",
        detail: `Currency with code = '${from.value}' not found.`,
      });
    if (b === null)
      return fail({
        status: 404,
        title: "Object(s) not found",
        detail: `Currency with code = '${to.value}' not found.`,
      });
    const rate = Math.round((a / b) * 1e6) / 1e6;
    return ok({
      CurrencyCode: from.value.toUpperCase(),
      ExchangeBase: 1,
      ExchangeRate: rate,
      ReverseExchangeRate: Math.round((b / a) * 1e6) / 1e6,
      RateDate: on.value.slice(0, 10),
    });
  },
  "GET /VatCodes": (ctx) => {
    const pred = predicateOf([filter("isActive", "IsActive", "bool")], ctx.q);
    return pred.ok
      ? listReply(
          ctx,
          ctx.store
            .all("VatCode")
            .map((r) => r.dto)
            .filter(pred.value),
        )
      : pred;
  },
  "GET /FinancialSettings": settings(SETTINGS.financial),
  "GET /LockDateSettings": settings(SETTINGS.lockDate),
  "GET /VatSettings": settings(SETTINGS.vat),
  "GET /OrganizationSettings": (ctx) => {
    const address = {
      AddressLine1: "Sandkassen 1",
      AddressLine2: null,
      City: "Oslo",
      CountryCode: "NO",
      ZipCode: "0150",
    };
    const values: Record<string, unknown> = {
      Id: ctx.call.clientId,
      Name: "Sandbox client",
      LegalName: "Sandbox client AS",
      OrganizationNumber: "999999999",
      MailAddress: address,
      DeliveryAddress: address,
      MailAddressIsDeliveryAddress: true,
      DefaultAgricultureDepartment: "None",
      InvoiceInboxEhf: false,
      InvoiceInboxEmail: false,
      IsAgricultureClient: false,
      LastChangedDateTimeOffset: ctx.now.toISOString(),
    };
    return ok(shape(ORGANIZATION_SETTING_DTO_FIELDS, values));
  },
};
