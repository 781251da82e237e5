/**
 * @module
 * Idempotent writes: a `/v2` `POST`, `PUT`, `PATCH` or `DELETE` with an `Idempotency-Key` header
 * (IETF httpapi draft, Stripe) is answered once; a repeat of the same request with the same key
 * gets the same answer with `Idempotent-Replayed: true` and no upstream call. The records are the
 * tenant's (`v2/tenant/idempotency-keys.ts`), so one tenant's key never meets another's.
 *
 * Which first outcomes are kept (docs/shaping.md, "Idempotent writes"):
 * - an answer of the API is kept and replayed, except a `401` or `429` (the API refused the call at
 *   its door: the record is released, so the key can be used again) and a `5xx` (a proxy or the
 *   API failed somewhere: the write may or may not have been applied, so the outcome is unknown);
 * - a call refused before the write was sent (bad body, no permit, no token, or a code lookup
 *   that failed or was refused: the write itself made no upstream attempt) releases the record;
 * - a call that failed after it was sent (timeout, reset) leaves the outcome unknown. A repeat then
 *   gets `409 outcome-unknown`, except for a create whose body carries a top-level
 *   `ExternalImportReference` in a collection the API can filter by it (`RECOVERABLE_CREATES`):
 *   the gateway looks the record up once, answers with it if found, and otherwise sends the write
 *   again. Sending again is safe there even if the lookup missed a record the API has not shown
 *   yet: the API refuses a second record with the same reference (`400`).
 */
import { readCapped } from "../../../shared/bytes";
import type { Finish } from "../tenant/idempotency-keys";
import { BUFFERED_BODY_BYTES, type V2Request } from "../passthrough";
import { sha256Hex } from "../../kernel/crypto";
import { unwrap } from "../../kernel/outcome";
import { Problem } from "../../kernel/problem";
import { asHolder } from "../../kernel/stubs";
import type { CallTrace } from "../../upstream/client";
import { fingerprintOf, idempotencyKeyOf, recoverableCreate } from "./idempotency-rules";
import { recover } from "./idempotency-recovery";
import { answerResponse, capture, type StoredAnswer } from "./stored-answer";

/**
 * The largest answer body kept for replay, bytes: 256 KiB, far above any create's or patch's
 * answer.
 */
export const MAX_REPLAY_BODY_BYTES = 256 * 1024;
/**
 * How long after the call's deadline its claim lapses, ms: time for its last hop to the tenant's
 * object.
 */
const LEASE_MARGIN_MS = 10_000;
/** Headers of an answer that are kept and replayed. */
const KEPT_HEADERS = ["content-type", "location"];
/** Says that the answer is a kept one (a replay or a recovered record), not a new write. */
export const REPLAYED = "idempotent-replayed";

/**
 * Set by a write just before it sends the request itself, after any lookups it made first (codes
 * for ids): the trace's upstream attempts at that moment. Null while the write has sent nothing of
 * its own, so a lookup that failed or was refused is told apart from the write.
 */
export interface SendMark {
  attempts: number | null;
}

/** A write with the caller's (possibly re-read) request; it marks `mark` when it sends. */
export type Write = (r: V2Request, mark: SendMark) => Promise<Response>;

/** Answers a write that carries `Idempotency-Key` at most once per key (see the module's notes). */
export async function idempotent(r: V2Request, trace: CallTrace, write: Write): Promise<Response> {
  const key = idempotencyKeyOf(r.headers.get("idempotency-key") ?? "");
  if (!key.ok) throw new Problem("bad-request", key.error);
  const req = await buffered(r);
  const body = req.body instanceof ArrayBuffer ? req.body : null;
  const recoverable = recoverableCreate(req.method, req.path, body);
  const keyHash = await sha256Hex(key.value);
  const claim = unwrap(
    await asHolder(r.env, r.caller, async (face) =>
      face.idempotencyClaim({
        keyHash,
        fingerprint: await fingerprintOf(req.method, req.path + req.search, body),
        recheck: recoverable !== null,
        leaseUntil: r.deadline + LEASE_MARGIN_MS,
      }),
    ),
  );
  const finish = async (holder: string, how: Finish) =>
    void unwrap(
      await asHolder(r.env, r.caller, (face) => face.idempotencyFinish({ keyHash, holder, how })),
    );
  switch (claim.kind) {
    case "replay":
      return replay(claim.answer, r.requestId);
    case "mismatch":
      throw new Problem(
        "idempotency-key-reused",
        "This Idempotency-Key was first used with another request (method, path or body). Use a new key for a new request.",
      );
    case "in-flight":
      throw new Problem(
        "idempotency-key-in-use",
        "The first request with this Idempotency-Key is still being answered. Repeat it after the Retry-After.",
        { headers: { "retry-after": "1" } },
      );
    case "unknown":
      throw unknownOutcome();
    case "recheck": {
      // The object offers a recheck only to a caller that said it can make one.
      if (!recoverable) throw unknownOutcome();
      const found = await recover(req, trace, recoverable).catch(async (err: unknown) => {
        await finish(claim.holder, { kind: "unknown" });
        throw err;
      });
      if (found.kind === "found") {
        await finish(claim.holder, { kind: "answer", answer: found.answer });
        return replay(found.answer, r.requestId);
      }
      if (found.kind === "unclear") {
        await finish(claim.holder, { kind: "unknown" });
        throw unknownOutcome(found.detail);
      }
      return attempt(req, trace, write, (how) => finish(claim.holder, how));
    }
    case "first":
      return attempt(req, trace, write, (how) => finish(claim.holder, how));
  }
}

/** Sends the write for the record's holder and records what came of it. */
async function attempt(
  r: V2Request,
  trace: CallTrace,
  write: Write,
  finish: (how: Finish) => Promise<void>,
): Promise<Response> {
  const mark: SendMark = { attempts: null };
  let res: Response;
  try {
    res = await write(r, mark);
  } catch (err) {
    const sent = mark.attempts !== null && trace.attempts > mark.attempts;
    await finish(mayHaveArrived(err, sent) ? { kind: "unknown" } : { kind: "release" });
    throw err;
  }
  // Answered before the write was sent: a lookup's own answer (a 403, a 5xx), passed back. Nothing
  // was written, so the key is free again, as after any refusal before sending.
  if (mark.attempts === null || res.status === 401 || res.status === 429) {
    await finish({ kind: "release" });
    return res;
  }
  if (res.status >= 500) {
    await finish({ kind: "unknown" });
    return res;
  }
  const kept = await capture(res, KEPT_HEADERS, MAX_REPLAY_BODY_BYTES);
  await finish({ kind: "answer", answer: kept.answer });
  return kept.response;
}

/**
 * Whether a write that threw may have been applied: the write itself was sent on its way (`sent`:
 * an upstream attempt after its `SendMark`; a code lookup that failed before it does not count)
 * and no answer came (a timeout, a reset, or an error that is not the gateway's own refusal). The
 * gateway's refusals (a bad body or code, no permit, no token) all come before the write is sent,
 * or after a `401`, which the API answers without applying anything.
 */
export function mayHaveArrived(err: unknown, sent: boolean): boolean {
  if (!sent) return false;
  return (
    !(err instanceof Problem) ||
    err.type === "upstream-timeout" ||
    err.type === "upstream-failed" ||
    err.type === "internal"
  );
}

/**
 * A kept answer given again. A body too large to keep is replayed as its status and `Location`
 * only.
 */
function replay(answer: StoredAnswer, requestId: string): Response {
  return answerResponse(answer, { "x-request-id": requestId, [REPLAYED]: "true" });
}

function unknownOutcome(why = ""): Problem {
  return new Problem(
    "outcome-unknown",
    `The first request with this Idempotency-Key was sent, but no answer came back, so whether the API applied it is unknown.${why ? ` ${why}` : ""} Check the record in the books (the API has no way to tell from here), then use a new key.`,
  );
}

/**
 * `r` with its body buffered: the fingerprint needs every byte, and the write may be sent again.
 */
async function buffered(r: V2Request): Promise<V2Request> {
  if (!(r.body instanceof ReadableStream)) return r;
  const bytes = await readCapped(r.body, BUFFERED_BODY_BYTES).catch(() => null);
  if (bytes === null) {
    throw new Problem(
      "payload-too-large",
      `A write with an Idempotency-Key takes a body of at most ${BUFFERED_BODY_BYTES} bytes (it is kept to be compared); nothing was sent to the API.`,
    );
  }
  return { ...r, body: bytes.buffer };
}
