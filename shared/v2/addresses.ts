/**
 * @module
 * The two address bodies of API v2. `ContactAddressPostDto` is the mail address of a customer,
 * supplier or employee; `AddressPostDto` that of a client or a contact person. They differ in
 * ExternalCode and in how strictly City and ZipCode are required.
 */
import { z } from "zod";
import { countryCode, opt, requiredText } from "./schema-kit";

/** `ContactAddressPostDto`: City and ZipCode are required keys (their value may be null). */
export const ContactAddressPost = z.strictObject({
  AddressLine1: opt(z.string().max(200)),
  AddressLine2: opt(z.string().max(200)),
  City: z.string().max(100).nullable(),
  CountryCode: opt(countryCode),
  ExternalCode: opt(z.string().max(50)),
  ZipCode: z.string().max(50).nullable(),
});

/**
 * `AddressPostDto` (client and contact-person mail address): like `ContactAddressPost` without
 * ExternalCode. City and ZipCode are in the spec's `required` list, so they must be present and
 * set.
 */
export const AddressPost = z.strictObject({
  AddressLine1: opt(z.string().max(200)),
  AddressLine2: opt(z.string().max(200)),
  City: requiredText(100),
  CountryCode: opt(countryCode),
  ZipCode: requiredText(50),
});
