/**
 * @module
 * The storage of one client's records: one SQLite table of JSON documents keyed by kind and id,
 * with the parent a record hangs under and the integration that created it. Every read and write of
 * a handler goes through here, inside the client's Durable Object, so each handler runs atomically.
 */

/** A stored document: the DTO the API answers with. */
export type Dto = Record<string, unknown>;

/**
 * A DTO with exactly `fields`, in that order, null where `values` has nothing: stored records may
 * carry bookkeeping the API does not show, and a response always names every property of its
 * schema.
 */
export function shape(fields: readonly string[], values: Dto = {}): Dto {
  return Object.fromEntries(fields.map((f) => [f, values[f] ?? null]));
}

interface Row extends Record<string, SqlStorageValue> {
  id: string;
  parent: string | null;
  owner: string;
  data: string;
}

/** A record with its bookkeeping. */
export interface Stored {
  id: string;
  parent: string | null;
  owner: string;
  dto: Dto;
}

/**
 * Every record's document is parsed once and kept, frozen, per kind: handlers scan whole kinds (a
 * voucher's reference among all vouchers, an invoice's postings among all postings), and parsing
 * every row's JSON for every scan made a call's cost grow with the books (a thousand orders' books
 * took hundreds of ms a call, enough to stall the one local thread and bunch the calls behind it).
 * Frozen, so that a handler that changes a document it read fails loudly instead of changing the
 * copy the next call reads; `put` is the only way in. Map order is creation order (`seq`): an
 * update keeps its place, as the row keeps its `seq`.
 */
type Kind = Map<string, Stored>;

/**
 * The copies belong to the storage, not to one `Store`: every `Store` over the same object's
 * storage (a test's `runInDurableObject` writing beside the object's own) sees the same documents.
 */
const copies = new WeakMap<SqlStorage, Map<string, Kind>>();

export class Store {
  readonly #kinds: Map<string, Kind>;

  constructor(private readonly sql: SqlStorage) {
    let kinds = copies.get(sql);
    if (!kinds) copies.set(sql, (kinds = new Map()));
    this.#kinds = kinds;
  }

  /**
   * Drops the parsed documents: the next read parses the table again. For a wiped client, and a
   * transaction that rolled back.
   */
  forget(): void {
    this.#kinds.clear();
  }

  /**
   * Runs `run` in one transaction of `storage` (this store's); when it throws, what it wrote is
   * gone from the table, and from the copies too.
   */
  atomically<T>(storage: DurableObjectStorage, run: () => T): T {
    try {
      return storage.transactionSync(run);
    } catch (e) {
      this.forget();
      throw e;
    }
  }

  /** Creates the tables; returns true when they were created now (a new client, to be seeded). */
  migrate(version: string): boolean {
    this.sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    if (this.meta("schema") === version) return false;
    // Sandbox data is disposable: a new layout starts the client afresh instead of migrating
    // documents. Deliberately not the gateway's numbered migrations (src/kernel/migrations.ts).
    for (const t of ["customers", "records", "counters"])
      this.sql.exec(`DROP TABLE IF EXISTS ${t}`);
    this.sql
      .exec(`CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, parent TEXT, owner TEXT NOT NULL,
      seq INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, id))`);
    this.sql.exec("CREATE INDEX records_parent ON records (kind, parent)");
    this.sql.exec("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
    this.forget();
    this.setMeta("schema", version);
    return true;
  }

  meta(key: string): string | null {
    return (
      this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]
        ?.value ?? null
    );
  }

  setMeta(key: string, value: string): void {
    this.sql.exec(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      key,
      value,
    );
  }

  /** All records of a kind (optionally under one parent), in creation order. */
  all(kind: string, parent?: string): Stored[] {
    const rows = [...this.#kind(kind).values()];
    return parent === undefined ? rows : rows.filter((r) => r.parent === parent);
  }

  get(kind: string, id: string | number): Stored | null {
    const loaded = this.#kinds.get(kind);
    if (loaded) return loaded.get(String(id)) ?? null;
    const row = this.sql
      .exec<Row>(
        "SELECT id, parent, owner, data FROM records WHERE kind = ? AND id = ?",
        kind,
        String(id),
      )
      .toArray()[0];
    return row ? toStored(row) : null;
  }

  /** The parsed documents of `kind`, read from the table at the first use. */
  #kind(kind: string): Kind {
    let loaded = this.#kinds.get(kind);
    if (!loaded) {
      const rows = this.sql
        .exec<Row>("SELECT id, parent, owner, data FROM records WHERE kind = ? ORDER BY seq", kind)
        .toArray();
      loaded = new Map(rows.map((row) => [row.id, toStored(row)]));
      this.#kinds.set(kind, loaded);
    }
    return loaded;
  }

  /**
   * The first record of `kind` whose `field` equals `value` (strings compared case-insensitively).
   */
  findBy(kind: string, field: string, value: unknown, parent?: string): Stored | null {
    const wanted = typeof value === "string" ? value.toLowerCase() : value;
    return (
      this.all(kind, parent).find((r) => {
        const v = r.dto[field];
        return (typeof v === "string" ? v.toLowerCase() : v) === wanted;
      }) ?? null
    );
  }

  put(
    kind: string,
    id: string | number,
    dto: Dto,
    meta: { parent?: string | null; owner: string },
  ): void {
    const data = JSON.stringify(dto);
    this.sql.exec(
      `INSERT INTO records (kind, id, parent, owner, seq, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(kind, id) DO UPDATE SET data = excluded.data, parent = excluded.parent`,
      kind,
      String(id),
      meta.parent ?? null,
      meta.owner,
      this.next("seq", 1),
      data,
    );
    const loaded = this.#kinds.get(kind);
    if (loaded) {
      const key = String(id);
      // The row keeps the owner it was created with; the copy does too.
      const owner = loaded.get(key)?.owner ?? meta.owner;
      loaded.set(key, {
        id: key,
        parent: meta.parent ?? null,
        owner,
        // The document as the table now holds it, as a read from the table would answer it.
        dto: frozen(JSON.parse(data) as Dto),
      });
    }
  }

  remove(kind: string, id: string | number): void {
    this.sql.exec("DELETE FROM records WHERE kind = ? AND id = ?", kind, String(id));
    this.#kinds.get(kind)?.delete(String(id));
  }

  removeChildren(kind: string, parent: string): void {
    this.sql.exec("DELETE FROM records WHERE kind = ? AND parent = ?", kind, parent);
    const loaded = this.#kinds.get(kind);
    if (loaded) for (const [id, r] of loaded) if (r.parent === parent) loaded.delete(id);
  }

  /** The next value of a named counter, starting at `first`. */
  next(name: string, first: number): number {
    const row = this.sql
      .exec<{ value: number }>(
        "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
        name,
        first,
      )
      .toArray()[0];
    return row?.value ?? first;
  }

  /**
   * A new int64 id. Ids start at a random point per client, so one client's ids mean nothing to
   * another.
   */
  nextId(): number {
    const start = this.meta("id_start");
    if (start === null)
      this.setMeta("id_start", String(1_000_000 + Math.floor(Math.random() * 900_000_000)));
    return this.next("id", Number(this.meta("id_start")));
  }
}

function toStored(row: Row): Stored {
  return {
    id: row.id,
    parent: row.parent,
    owner: row.owner,
    dto: frozen(JSON.parse(row.data) as Dto),
  };
}

/** `value` and everything in it frozen. */
function frozen<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}
