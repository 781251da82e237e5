/**
 * @module
 * The request log's part of the operator's face (`tenant/operator-sections.ts` composes it).
 */
import { ok, type Outcome } from "../kernel/outcome";
import type { TenantParts } from "../tenant/parts";
import type { ApiClient, TenantRecord } from "../tenant/registration";
import type { CallCounters, CallerFilter, LoggedRow, StatusFilter } from "./tenant-rows";

/** A page of the request log, and what its support bundles name the client by. */
export interface LoggedPage {
  rows: LoggedRow[];
  apiClient: ApiClient | null;
  clientKeyId: string;
  registrationId: string;
}

type LogHost = Pick<TenantParts, "log" | "registration">;

export class RequestLogSection {
  readonly #t: LogHost;

  constructor(t: LogHost) {
    this.#t = t;
  }

  /** The logged calls, newest first, with the client as the API names it (null: not read yet). */
  requests(
    r: TenantRecord,
    status: StatusFilter,
    limit: number,
    before: number | null,
    caller: CallerFilter = "callers",
  ): Outcome<LoggedPage> {
    return ok({
      rows: this.#t.log.list(status, limit, before, Date.now(), caller),
      apiClient: r.apiClient,
      clientKeyId: r.clientKeyId,
      registrationId: r.registrationId,
    });
  }

  /** Keeps the client as the API named it, unless the client key changed since the read began. */
  keepApiClient(_: TenantRecord, clientKeyId: string, client: ApiClient): Outcome<boolean> {
    return ok(this.#t.registration.keepApiClient(clientKeyId, client));
  }

  /** The counters, which survive idling and restarts. */
  callCounters(): Outcome<CallCounters> {
    return ok(this.#t.log.counters());
  }
}
