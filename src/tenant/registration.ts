/**
 * @module
 * The tenant's registration, one row or none: its random id (new each time, so nothing started
 * under a removed one acts under the next), client, environment, name, and client key sealed with
 * the tenant name bound. Also the client as the API names it, for the support bundle: read lazily
 * (`request-log/api-client.ts`) and forgotten with the key. See docs/design/faces.md.
 */
import { z } from "zod";
import { Environment } from "../kernel/config";
import { Sealed } from "../kernel/crypto";
import { ClientSlug, tenantName, type TenantName } from "../kernel/stubs";
import { jsonColumn, row } from "./sql";

/** The table as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step). */
export const REGISTRATION_TABLES = [
  `CREATE TABLE IF NOT EXISTS registration (id INTEGER PRIMARY KEY CHECK (id = 1), registration_id TEXT NOT NULL, environment TEXT NOT NULL,
    client TEXT NOT NULL, name TEXT NOT NULL, created_at TEXT NOT NULL, client_key TEXT NOT NULL)`,
];

/** The client as the API names it: `ClientId` and `ClientName` of ClientIntegrationInformation. */
export const ApiClient = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().max(200).nullable(),
});
export type ApiClient = z.output<typeof ApiClient>;

const COLUMNS =
  "registration_id, environment, client, name, created_at, client_key, client_key_id, api_client_id, api_client_name";

const RegistrationRow = z
  .object({
    registration_id: z.string(),
    environment: Environment,
    client: ClientSlug,
    name: z.string(),
    created_at: z.string(),
    client_key: jsonColumn(Sealed),
    client_key_id: z.string(),
    api_client_id: z.string().nullable(),
    api_client_name: z.string().nullable(),
  })
  .transform((r) => ({
    registrationId: r.registration_id,
    environment: r.environment,
    client: r.client,
    name: r.name,
    createdAt: r.created_at,
    clientKey: r.client_key,
    /** A random id of the client key in use: new for every key adopted, never the key. */
    clientKeyId: r.client_key_id,
    /** The client as the API names it, once read; null until then, and after a key's change. */
    apiClient: r.api_client_id === null ? null : { id: r.api_client_id, name: r.api_client_name },
  }));

export type TenantRecord = z.output<typeof RegistrationRow>;

export const nameOf = (r: Pick<TenantRecord, "environment" | "client">): TenantName =>
  tenantName(r.environment, r.client);

export class Registration {
  /** Kept in memory: read on every call, written only by the operator. */
  #record: TenantRecord | null;

  constructor(private readonly sql: SqlStorage) {
    this.#record = row(sql, RegistrationRow, `SELECT ${COLUMNS} FROM registration WHERE id = 1`);
  }

  get(): TenantRecord | null {
    return this.#record;
  }

  /** The registration, if it is still the one with this id (a run's check). */
  current(registrationId: string): TenantRecord | null {
    return this.#record?.registrationId === registrationId ? this.#record : null;
  }

  /** Stores the registration (a new one, or the same with a re-sealed or replaced client key). */
  save(r: TenantRecord): void {
    this.sql.exec(
      `INSERT OR REPLACE INTO registration (id, ${COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.registrationId,
      r.environment,
      r.client,
      r.name,
      r.createdAt,
      JSON.stringify(r.clientKey),
      r.clientKeyId,
      r.apiClient?.id ?? null,
      r.apiClient?.name ?? null,
    );
    this.#record = r;
  }

  /** Stores the client as the API named it, if `clientKeyId` is still the key in use. */
  keepApiClient(clientKeyId: string, client: ApiClient): boolean {
    const r = this.#record;
    if (!r || r.clientKeyId !== clientKeyId) return false;
    const c = ApiClient.parse(client);
    this.save({ ...r, apiClient: c });
    return true;
  }

  clear(): void {
    this.sql.exec("DELETE FROM registration");
    this.#record = null;
  }
}
