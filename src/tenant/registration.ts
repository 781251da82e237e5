/**
 * @module
 * The tenant's registration: its random id (new for every registration, so nothing started under a
 * removed one can act under the next), which client in which environment it is, its display name,
 * and its client key, sealed (AES-256-GCM under `SECRETS_KEY`, the tenant name bound as additional
 * data, so a sealed key copied to another tenant does not open there). One row, or none.
 *
 * Since step 9 it also names the client as the API knows it (`ApiClient`: the `ClientId` and
 * `ClientName` of `GET /ClientIntegrationInformation`), which the support bundle must carry (the
 * API's provider asks for the client id, never the client key). Read once, lazily, when a support
 * bundle is first built (`request-log/api-client.ts`), and forgotten when the client key is
 * replaced (the new key may open another company). Each adopted client key gets a random id
 * (`clientKeyId`), so a read made with one key is never stored under the next.
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

/** A registered tenant as stored. */
export type TenantRecord = z.output<typeof RegistrationRow>;

/** The tenant name of a record. */
export const nameOf = (r: Pick<TenantRecord, "environment" | "client">): TenantName =>
  tenantName(r.environment, r.client);

export class Registration {
  /** Kept in memory: read on every call, written only by the operator. */
  #record: TenantRecord | null;

  constructor(private readonly sql: SqlStorage) {
    this.#record = row(sql, RegistrationRow, `SELECT ${COLUMNS} FROM registration WHERE id = 1`);
  }

  /** The registration, or null when the tenant is not registered. */
  get(): TenantRecord | null {
    return this.#record;
  }

  /**
   * The registration, if it is still the one with this id: a run started under an earlier
   * registration of the same name gets null, and so reads and writes nothing.
   */
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

  /**
   * Stores the client as the API named it, if `clientKeyId` is still the key in use: a read that
   * was under way while the operator replaced the key (it may have opened the old company) is
   * dropped. Answers whether it was stored.
   */
  keepApiClient(clientKeyId: string, client: ApiClient): boolean {
    const r = this.#record;
    if (!r || r.clientKeyId !== clientKeyId) return false;
    const c = ApiClient.parse(client);
    this.save({ ...r, apiClient: c });
    return true;
  }

  /** Removes the registration. */
  clear(): void {
    this.sql.exec("DELETE FROM registration");
    this.#record = null;
  }
}
