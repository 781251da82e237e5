/**
 * @module
 * Customer rules of the API that do not need storage: turning a `CustomerPostDto` into the
 * `CustomerDto` the API answers, the list filters of `GET /Customers`, and the writable view a JSON
 * Patch works on.
 */
import { customerPatchableFields, type CustomerPost } from "../../../src/lib/v2/customers";
import { idList, numberRanges, stringList, timestampParam } from "./query";
import { problems, type Result } from "./problem";

/** The customer ledger number series every sandbox client has. */
export const CUSTOMER_NUMBER_SERIES = { first: 10000, last: 19999 } as const;

/** Server-set parts of a customer. */
export interface CustomerIdentity {
  id: number;
  number: number;
  createdAt: string;
  changedAt: string;
  addressId: number;
}

/** The `CustomerDto` for a validated post body and its server-set identity. */
export function customerDto(post: CustomerPost, who: CustomerIdentity): Record<string, unknown> {
  const dto: Record<string, unknown> = {};
  for (const field of customerPatchableFields) dto[field] = post[field as keyof CustomerPost] ?? null;
  const isPerson = post.IsPerson === true;
  const address = post.MailAddress;
  return {
    ...dto,
    Id: who.id,
    Number: who.number,
    Name: isPerson ? `${post.FirstName ?? ""} ${post.LastName ?? ""}`.trim() : (post.Name ?? null),
    IsPerson: isPerson,
    CurrencyCode: (post.CurrencyCode ?? "NOK").toUpperCase(),
    InvoiceDeliveryType: post.InvoiceDeliveryType ?? "Print",
    ReminderDeliveryType: post.ReminderDeliveryType ?? "Print",
    NoticeOfDebtCollectionDeliveryType: post.NoticeOfDebtCollectionDeliveryType ?? "Print",
    ContactGroupIds: post.ContactGroupIds ?? [],
    IsArchived: post.IsArchived ?? false,
    SendPaymentReminders: post.SendPaymentReminders ?? true,
    TransferToDebtCollectionAgency: post.TransferToDebtCollectionAgency ?? true,
    UseInvoiceFee: post.UseInvoiceFee ?? true,
    MailAddress: {
      Id: who.addressId,
      AddressLine1: address?.AddressLine1 ?? null,
      AddressLine2: address?.AddressLine2 ?? null,
      City: address?.City ?? null,
      ZipCode: address?.ZipCode ?? null,
      CountryCode: (address?.CountryCode ?? "NO").toUpperCase(),
      ExternalCode: address?.ExternalCode ?? null,
      LastChangedDateTimeOffset: who.changedAt,
    },
    // The sub-ledger account of a customer is its own account; the sandbox derives its id from the contact's.
    SubledgerAccountId: who.id + 1,
    ContactCreatedDateTimeOffset: who.createdAt,
    CustomerCreatedDateTimeOffset: who.createdAt,
    LastChangedDateTimeOffset: who.changedAt,
    CreatedFromImportJournalId: null,
    IsActive: true,
    PaymentTerm: post.PaymentTerm ?? 14,
  };
}

/** The writable view of a stored customer, the document a JSON Patch is applied to. */
export function writableView(dto: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const field of customerPatchableFields) if (dto[field] !== null && dto[field] !== undefined) view[field] = dto[field];
  const address = dto.MailAddress as Record<string, unknown> | null;
  if (address) {
    const { Id: _id, LastChangedDateTimeOffset: _changed, ...rest } = address;
    view.MailAddress = rest;
  }
  return view;
}

/** Every property name of `CustomerDto`, for `Fields` and `OrderBy`. */
export const CUSTOMER_DTO_FIELDS: readonly string[] = [
  ...customerPatchableFields,
  "Id", "SubledgerAccountId", "ContactCreatedDateTimeOffset", "CustomerCreatedDateTimeOffset",
  "LastChangedDateTimeOffset", "CreatedFromImportJournalId", "IsActive",
];

type Predicate = (c: Record<string, unknown>) => boolean;

/** Builds the filter of `GET /Customers` from its (lowercased) query; a bad value is a problem. */
export function customerFilter(q: Map<string, string>): Result<Predicate> {
  const preds: Predicate[] = [];
  const ranges = (key: string, field: string): Result<null> => {
    const raw = q.get(key.toLowerCase())?.trim();
    if (!raw) return { ok: true, value: null };
    const r = numberRanges(raw);
    if (!r) return { ok: false, problem: problems.cast(`${key} must be numbers or ranges such as "10000-11000, 12000, 13000-".`) };
    preds.push((c) => typeof c[field] === "number" && r.some(([lo, hi]) => (c[field] as number) >= lo && (c[field] as number) <= hi));
    return { ok: true, value: null };
  };
  const after = (key: string, field: string): Result<null> => {
    const raw = q.get(key.toLowerCase())?.trim();
    if (!raw) return { ok: true, value: null };
    const t = timestampParam(raw);
    if (t === null) return { ok: false, problem: problems.cast(`${key} must be a date-time such as 2021-09-25 08:03:00.123456+00:00.`) };
    preds.push((c) => Date.parse(String(c[field])) > t);
    return { ok: true, value: null };
  };
  const strings = (key: string, field: string) => {
    const raw = q.get(key.toLowerCase());
    if (!raw?.trim()) return;
    const wanted = new Set(stringList(raw));
    preds.push((c) => typeof c[field] === "string" && wanted.has((c[field] as string).toLowerCase()));
  };
  for (const step of [
    ranges("customerNos", "Number"),
    ranges("externalNos", "ExternalNumber"),
    after("customerCreatedDateTimeOffsetGreaterThan", "CustomerCreatedDateTimeOffset"),
    after("lastChangedDateTimeOffsetGreaterThan", "LastChangedDateTimeOffset"),
  ]) {
    if (!step.ok) return step;
  }
  strings("organizationNumbers", "OrganizationNumber");
  strings("emailAddresses", "EmailAddress");
  const ref = q.get("externalimportreference")?.trim();
  if (ref) preds.push((c) => c.ExternalImportReference === ref);
  const groups = q.get("contactgroupids");
  if (groups?.trim()) {
    const ids = idList(groups, "contactGroupIds");
    if (!ids.ok) return ids;
    // The sandbox has no contact groups yet, so any id names a group that does not exist: 404 as the API answers.
    return { ok: false, problem: problems.notFound("ContactGroup", ids.value[0] ?? "") };
  }
  return { ok: true, value: (c) => preds.every((p) => p(c)) };
}
