/**
 * @module
 * The events object's SQLite layout as migration steps (`kernel/migrations.ts`), applied on every
 * wake. Fields and retention: docs/storage.md. Times are epoch ms.
 */
import { addColumn } from "../../kernel/columns";
import { migrate as migrateSteps, type Migration } from "../../kernel/migrations";

/** The events object's layout, step by step. Add a step at the end; never edit a released one. */
export const EVENTS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "endpoints, events, deliveries, attempts: the event log, its outbox and its subscribers",
    up: (sql) => {
      // `secret` and `previous_secret` are sealed (JSON of kernel/crypto's Sealed).
      sql.exec(`CREATE TABLE IF NOT EXISTS endpoints (id TEXT PRIMARY KEY, url TEXT NOT NULL,
        types TEXT NOT NULL, description TEXT, secret TEXT NOT NULL, previous_secret TEXT,
        previous_until INTEGER, state TEXT NOT NULL, disabled_reason TEXT, disabled_at INTEGER,
        failing_since INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`);
      // `key`: the de-duplication key (events/keys.ts); `seq` orders the feed.
      sql.exec(`CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, at INTEGER NOT NULL,
        recorded_at INTEGER NOT NULL, key TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`);
      sql.exec("CREATE INDEX IF NOT EXISTS events_recorded ON events (recorded_at)");
      // The outbox: one row per event and endpoint. `due_at`: when the sweep sends it (again).
      sql.exec(`CREATE TABLE IF NOT EXISTS deliveries (event_id TEXT NOT NULL,
        endpoint_id TEXT NOT NULL, state TEXT NOT NULL, round INTEGER NOT NULL,
        trigger TEXT NOT NULL, attempts INTEGER NOT NULL, queued INTEGER NOT NULL,
        due_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
        PRIMARY KEY (event_id, endpoint_id))`);
      sql.exec("CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (state, due_at)");
      sql.exec("CREATE INDEX IF NOT EXISTS deliveries_endpoint ON deliveries (endpoint_id)");
      sql.exec(`CREATE TABLE IF NOT EXISTS attempts (seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, attempt INTEGER NOT NULL,
        trigger TEXT NOT NULL, at INTEGER NOT NULL, status INTEGER, error TEXT,
        duration_ms INTEGER NOT NULL)`);
      sql.exec("CREATE INDEX IF NOT EXISTS attempts_endpoint ON attempts (endpoint_id, seq)");
      sql.exec("CREATE INDEX IF NOT EXISTS attempts_event ON attempts (event_id)");
      sql.exec("CREATE INDEX IF NOT EXISTS attempts_at ON attempts (at)");
    },
  },
  {
    version: 2,
    name: "attempts.type: a test event's attempt, whose event is in no log",
    up: (sql) => addColumn(sql, "attempts", "type", "TEXT"),
  },
  {
    version: 3,
    name: "endpoints.max_per_second, next_slot_at; deliveries.slot_at: an endpoint's pace",
    up: (sql) => {
      addColumn(sql, "endpoints", "max_per_second", "INTEGER");
      addColumn(sql, "endpoints", "next_slot_at", "INTEGER");
      addColumn(sql, "deliveries", "slot_at", "INTEGER");
    },
  },
  {
    version: 4,
    name: "consumers: named pull consumers whose position the object keeps",
    up: (sql) => {
      // `position`: the `seq` of the last event handed to it (0: before the first).
      sql.exec(`CREATE TABLE IF NOT EXISTS consumers (name TEXT PRIMARY KEY,
        position INTEGER NOT NULL, types TEXT, read_at INTEGER, created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL)`);
    },
  },
  {
    version: 5,
    name: "endpoints.ordered; deliveries.held_at: an ordered endpoint's deliveries wait in turn",
    up: (sql) => {
      addColumn(sql, "endpoints", "ordered", "INTEGER");
      addColumn(sql, "deliveries", "held_at", "INTEGER");
    },
  },
];

/**
 * Brings the storage to the last step; synchronous, for the constructor.
 *
 * @throws MigrationError when a step fails (rolled back; the object's calls fail until it passes)
 */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Events", EVENTS_MIGRATIONS);
}
