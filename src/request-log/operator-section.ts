/**
 * @module
 * The request log's part of the operator's face (`tenant/operator-sections.ts` composes it): the
 * logged calls, their counters, and the client as the API names it for support bundles.
 */
import { ok, type Outcome } from "../kernel/outcome";
import type { TenantParts } from "../tenant/parts";
import type { ApiClient, TenantRecord } from "../tenant/registration";
import type { CallCounters, LoggedRow, StatusFilter } from "./tenant-rows";

/** A page of the request log and what its support bundles name the client by. */
export interface LoggedPage {
  rows: LoggedRow[];
  apiClient: ApiClient | null;
  clientKeyId: string;
  /** For reading the client as the tenant, like offboarding (`request-log/api-client.ts`). */
  registrationId: string;
}

/** What the request log's operator methods read of the tenant. */
type LogHost = Pick<TenantParts, "log" | "registration">;

/** The operator's methods for the tenant's request log. */
export class RequestLogSection {
  readonly #t: LogHost;

  constructor(t: LogHost) {
    this.#t = t;
  }

  /**
   * The tenant's logged calls, newest first (`before` is a row's `seq`), with the client as the
   * API names it (null: not read yet; `clientKeyId` then goes back with the read to
   * `keepApiClient`).
   */
  requests(
    r: TenantRecord,
    status: StatusFilter,
    limit: number,
    before: number | null,
  ): Outcome<LoggedPage> {
    return ok({
      rows: this.#t.log.list(status, limit, before, Date.now()),
      apiClient: r.apiClient,
      clientKeyId: r.clientKeyId,
      registrationId: r.registrationId,
    });
  }

  /** Keeps the client as the API named it, unless the client key changed since the read began. */
  keepApiClient(_: TenantRecord, clientKeyId: string, client: ApiClient): Outcome<boolean> {
    return ok(this.#t.registration.keepApiClient(clientKeyId, client));
  }

  /** The counters kept with the tenant, which survive idling and restarts. */
  callCounters(): Outcome<CallCounters> {
    return ok(this.#t.log.counters());
  }
}
