import type Database from 'better-sqlite3';

/**
 * Reads the schema and the first row of every table, each from its own b-tree (NOT INDEXED):
 * the readiness check. `SELECT 1` reads no page at all, so it passed on a damaged file while
 * every login met SQLITE_CORRUPT; a quick_check reads every page, too slow for a probe polled
 * every few seconds on the event loop. This costs a few pages per table, and finds a file that
 * was replaced, truncated or overwritten, though not one bad page deep inside a table.
 */
export function readFirstPages(database: Database.Database): void {
  const tables = database.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().all() as string[];
  for (const table of tables) database.prepare(`SELECT 1 FROM "${table.replaceAll('"', '""')}" NOT INDEXED LIMIT 1`).get();
}
