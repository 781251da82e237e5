/**
 * @module
 * What Vipps MobilePay answers, as the settlement reader reads it: the access token (every field a
 * string), the merchant's ledgers, and a page of a ledger date's funds or fees rows. Lenient where
 * Vipps may add fields, strict on what a booking depends on (integer amounts in øre).
 */
import { z } from "zod";

export const TokenAnswer = z.object({ access_token: z.string().min(1) });

export const Ledger = z.object({
  ledgerId: z.string().min(1).max(40),
  currency: z.string().regex(/^[A-Z]{3}$/),
  settlesForRecipientHandles: z.array(z.string()).default([]),
});

export const LedgersAnswer = z.object({
  items: z.array(Ledger),
  cursor: z.string().nullish(),
});

/** One funds or fees row: minor units, signed as money into the merchant's balance. */
export const Row = z.object({
  pspReference: z.string().max(200),
  ledgerDate: z.string(),
  entryType: z.string().max(60),
  reference: z
    .string()
    .max(200)
    .nullish()
    .transform((r) => r ?? ""),
  currency: z.string(),
  amount: z.int(),
  balanceBefore: z.int(),
  balanceAfter: z.int(),
});
export type Row = z.output<typeof Row>;

/** A page of a date: `tryLater` while the date is not closed. */
export const ReportPage = z.object({
  items: z.array(Row),
  cursor: z.string().nullish(),
  hasMore: z.boolean().optional(),
  tryLater: z.boolean().optional(),
});
