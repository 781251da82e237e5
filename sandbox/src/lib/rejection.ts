/**
 * @module
 * Turns the platform's decision about a call into the answer the real API gives at that layer.
 */
import type { Rejection } from "../durable/platform";
import { apimResponse, oauthError, problemResponse } from "./problem";

/** Thrown to drop the connection; the runtime then sends no HTTP answer to the caller. */
export class DroppedConnection extends Error {
  constructor() {
    super("connection dropped by an injected sandbox fault");
  }
}

/** The response for a rejected call (or a thrown `DroppedConnection` for a dropped one). */
export function rejectionResponse(r: Rejection): Response {
  switch (r.kind) {
    case "fault-drop":
    case "fault-lose-answer":
      throw new DroppedConnection();
    case "fault-error":
      return problemResponse({
        status: r.status,
        title: "Service Unavailable",
        detail: "The service is temporarily unable to handle the request (injected fault).",
      });
    case "subscription":
      return apimResponse(
        401,
        r.reason === "missing"
          ? "Access denied due to missing subscription key. Make sure to include subscription key when making requests to an API."
          : "Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.",
      );
    case "throttled":
      return apimResponse(
        429,
        `Rate limit is exceeded. Try again in ${r.retryAfterSeconds} seconds.`,
        { "retry-after": String(r.retryAfterSeconds) },
      );
    case "token": {
      // ASP.NET's bearer handler answers 401 with no body and says why in WWW-Authenticate.
      const challenge =
        r.reason === "missing"
          ? "Bearer"
          : `Bearer error="invalid_token", error_description="The access token is ${r.reason}"`;
      return new Response(null, { status: 401, headers: { "www-authenticate": challenge } });
    }
    case "oauth":
      return oauthError(r.error, r.description);
  }
}

/** Waits `ms` before answering, to model distance to the real API. */
export async function delay(ms: number): Promise<void> {
  if (ms > 0) await scheduler.wait(ms);
}
