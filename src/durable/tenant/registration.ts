/**
 * @module
 * The tenant's registration: its random id (new for every registration, so nothing started under a
 * removed one can act under the next), which client in which environment it is, its display name,
 * and its client key, sealed (AES-256-GCM under `SECRETS_KEY`, the tenant name bound as additional
 * data, so a sealed key copied to another tenant does not open there). One row, or none.
 */
import { z } from "zod";
import { Environment } from "../../lib/config";
import { Sealed } from "../../lib/crypto";
import { ClientSlug, tenantName, type TenantName } from "../../lib/stubs";
import { jsonColumn, row } from "./sql";

/** The table as of layout 5 (frozen as step 5 of `schema.ts`: change it with a new step). */
export const REGISTRATION_TABLES = [
  `CREATE TABLE IF NOT EXISTS registration (id INTEGER PRIMARY KEY CHECK (id = 1), registration_id TEXT NOT NULL, environment TEXT NOT NULL,
    client TEXT NOT NULL, name TEXT NOT NULL, created_at TEXT NOT NULL, client_key TEXT NOT NULL)`,
];

const RegistrationRow = z
  .object({
    registration_id: z.string(),
    environment: Environment,
    client: ClientSlug,
    name: z.string(),
    created_at: z.string(),
    client_key: jsonColumn(Sealed),
  })
  .transform((r) => ({
    registrationId: r.registration_id,
    environment: r.environment,
    client: r.client,
    name: r.name,
    createdAt: r.created_at,
    clientKey: r.client_key,
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
    this.#record = row(
      sql,
      RegistrationRow,
      "SELECT registration_id, environment, client, name, created_at, client_key FROM registration WHERE id = 1",
    );
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

  /** Stores the registration (a new one, or the same with a re-sealed client key). */
  save(r: TenantRecord): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO registration (id, registration_id, environment, client, name, created_at, client_key) VALUES (1, ?, ?, ?, ?, ?, ?)",
      r.registrationId,
      r.environment,
      r.client,
      r.name,
      r.createdAt,
      JSON.stringify(r.clientKey),
    );
    this.#record = r;
  }

  /** Removes the registration. */
  clear(): void {
    this.sql.exec("DELETE FROM registration");
    this.#record = null;
  }
}
