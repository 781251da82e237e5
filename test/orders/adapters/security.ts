/**
 * @module
 * The signature checks every adapter must pass, as one shared suite: a valid delivery verifies, and
 * a missing, wrong or garbled signature, a signature under another secret, or a body changed after
 * signing is a 401.
 */
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/orders/adapters/adapters";
import type { Source } from "../../../src/orders/order";
import { sign, TEST_SECRETS, toDelivery, type SignOptions } from "../../fixtures/orders/sign";

/**
 * Runs the shared signature suite for `source` over `payload`; `signatureHeader` is the header that
 * carries the signature.
 */
export function signatureSuite(
  source: Source,
  payload: Record<string, unknown>,
  signatureHeader: string,
  opts: SignOptions = {},
): void {
  const adapter = ADAPTERS[source];
  const secret = TEST_SECRETS[source];
  const now = (): number => (opts.timestamp === undefined ? Date.now() : opts.timestamp * 1000);

  describe(`${source} signature`, () => {
    it("verifies a correctly signed delivery", async () => {
      const result = await adapter.verify(
        toDelivery(await sign(source, payload, secret, opts)),
        secret,
        now(),
      );
      expect(result.ok).toBe(true);
    });

    it("refuses a delivery without a signature with 401", async () => {
      const signed = await sign(source, payload, secret, opts);
      const headers = Object.fromEntries(
        Object.entries(signed.headers).filter(([name]) => name !== signatureHeader),
      );
      const result = await adapter.verify(toDelivery({ ...signed, headers }), secret, now());
      expect(result).toMatchObject({ ok: false, error: { status: 401 } });
    });

    it("refuses a signature made with another secret with 401", async () => {
      const other =
        source === "standard" ? `whsec_${btoa("another-secret-of-32-bytes-long!")}` : `${secret}x`;
      const result = await adapter.verify(
        toDelivery(await sign(source, payload, other, opts)),
        secret,
        now(),
      );
      expect(result).toMatchObject({ ok: false, error: { status: 401 } });
    });

    it("refuses a body changed after signing with 401", async () => {
      const signed = await sign(source, payload, secret, opts);
      // One digit more on the first amount-looking number: the JSON stays valid, the bytes do not
      // match.
      const tampered = { ...signed, body: signed.body.replace(/(\d)(")/, "$10$2") };
      expect(tampered.body).not.toBe(signed.body);
      const result = await adapter.verify(toDelivery(tampered), secret, now());
      expect(result).toMatchObject({ ok: false, error: { status: 401 } });
    });

    it("refuses a garbled signature header with 401", async () => {
      const signed = await sign(source, payload, secret, opts);
      signed.headers[signatureHeader] = "not a signature at all!";
      const result = await adapter.verify(toDelivery(signed), secret, now());
      expect(result).toMatchObject({ ok: false, error: { status: 401 } });
    });
  });
}

/** Signs `payload` for `source`, verifies it and returns the parse result (refusals included). */
export async function parseSigned(
  source: Source,
  payload: unknown,
  opts: SignOptions = {},
): Promise<ReturnType<(typeof ADAPTERS)[Source]["parse"]>> {
  const delivery = toDelivery(await sign(source, payload, TEST_SECRETS[source], opts));
  const verified = await ADAPTERS[source].verify(
    delivery,
    TEST_SECRETS[source],
    opts.timestamp === undefined ? Date.now() : opts.timestamp * 1000,
  );
  if (!verified.ok) throw new Error(`verify refused: ${verified.error.detail}`);
  return ADAPTERS[source].parse(delivery);
}

/** The events of a signed `payload`; a refusal fails the test with its detail. */
export async function eventsOf(source: Source, payload: unknown, opts: SignOptions = {}) {
  const parsed = await parseSigned(source, payload, opts);
  if (!parsed.ok) throw new Error(`parse refused: ${parsed.error.detail}`);
  return parsed.value;
}

/** `value`, or a thrown error when it is missing: for fixtures the test itself picked. */
export function must<T>(value: T | null | undefined, what = "value"): T {
  if (value === null || value === undefined) throw new Error(`missing ${what}`);
  return value;
}
