/**
 * @module
 * The watcher's SQLite layout as migration steps (`kernel/migrations.ts`), applied on every wake.
 * Fields: docs/storage.md. Times are epoch ms.
 */
import { migrate as migrateSteps, type Migration } from "../../../kernel/migrations";

/** The watcher's layout, step by step. Add a step at the end; never edit a released one. */
export const WATCHER_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "watch, cursors, cycles: what is watched, where each poll stands, the last cycles",
    up: (sql) => {
      sql.exec(`CREATE TABLE IF NOT EXISTS watch (id INTEGER PRIMARY KEY CHECK (id = 1),
        types TEXT NOT NULL, books TEXT, since INTEGER NOT NULL, active_at INTEGER,
        cycle_ms INTEGER NOT NULL, next_at INTEGER)`);
      sql.exec(`CREATE TABLE IF NOT EXISTS cursors (poll TEXT PRIMARY KEY, mode TEXT NOT NULL,
        floor INTEGER NOT NULL, seen INTEGER, resume TEXT, updated_at INTEGER NOT NULL)`);
      sql.exec(`CREATE TABLE IF NOT EXISTS cycles (seq INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, calls INTEGER NOT NULL,
        changes INTEGER NOT NULL, delay_ms INTEGER, outcome TEXT NOT NULL)`);
    },
  },
  {
    version: 2,
    name: "grant_seen: the integration's privileges and subscriptions as last read",
    up: (sql) => {
      // `granted`: JSON { validPrivileges, invalidPrivileges, subscriptions }; `since`: first seen.
      sql.exec(`CREATE TABLE IF NOT EXISTS grant_seen (id INTEGER PRIMARY KEY CHECK (id = 1),
        granted TEXT NOT NULL, since INTEGER NOT NULL, checked_at INTEGER NOT NULL)`);
    },
  },
];

/**
 * Brings the storage to the last step; synchronous, for the constructor.
 *
 * @throws MigrationError when a step fails (rolled back; the object's calls fail until it passes)
 */
export function migrate(storage: DurableObjectStorage): void {
  migrateSteps(storage, "Watcher", WATCHER_MIGRATIONS);
}
