/**
 * @module
 * Idempotent writes: a write with `Idempotency-Key` is answered once per key, per tenant; a repeat
 * gets the kept answer and no upstream call. See docs/design/v2-passthrough.md for which outcomes
 * are kept, released or unknown.
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

/** The largest answer body kept for replay, bytes: far above any create's or patch's answer. */
export const MAX_REPLAY_BODY_BYTES = 256 * 1024;
/** How long after the call's deadline its claim lapses, ms: its last hop to the tenant's object. */
const LEASE_MARGIN_MS = 10_000;
const KEPT_HEADERS = ["content-type", "location"];
/** Marks a kept answer (a replay or a recovered record), not a new write. */
export const REPLAYED = "idempotent-replayed";

/**
 * The trace's upstream attempts just before the write itself is sent (after any code lookups);
 * null while it has sent nothing, so a failed lookup is told apart from the write.
 */
export interface SendMark {
  attempts: number | null;
}

export type Write = (r: V2Request, mark: SendMark) => Promise<Response>;

/** Answers a write that carries `Idempotency-Key` at most once per key. */
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
  // A lookup's own answer (nothing was written), or refused at the API's door: the key is free.
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
 * Whether a write that threw may have been applied: it was sent (an attempt after its `SendMark`)
 * and the error is not one of the gateway's refusals, which all come before sending or after a 401.
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

function replay(answer: StoredAnswer, requestId: string): Response {
  return answerResponse(answer, { "x-request-id": requestId, [REPLAYED]: "true" });
}

function unknownOutcome(why = ""): Problem {
  return new Problem(
    "outcome-unknown",
    `The first request with this Idempotency-Key was sent, but no answer came back, so whether the API applied it is unknown.${why ? ` ${why}` : ""} Check the record in the books (the API has no way to tell from here), then use a new key.`,
  );
}

/** `r` with its body buffered: the fingerprint needs every byte, and the write may be resent. */
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
