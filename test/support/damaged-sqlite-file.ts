import Database from 'better-sqlite3';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';

const PAGE_BYTES = 4096;

/**
 * Damages every page of the file but the first (the schema), as a disk fault or a torn copy
 * would, then has another connection write so that a connection open on it reads the file
 * again instead of the pages it keeps in memory.
 */
export function damageDatabase(path: string): void {
  const other = new Database(path);
  other.pragma('wal_checkpoint(TRUNCATE)');
  other.close();
  const descriptor = openSync(path, 'r+');
  try {
    for (let offset = PAGE_BYTES; offset < statSync(path).size; offset += PAGE_BYTES) writeSync(descriptor, Buffer.alloc(100, 0x41), 0, 100, offset);
  } finally {
    closeSync(descriptor);
  }
  const writer = new Database(path);
  writer.exec('CREATE TABLE IF NOT EXISTS touched (id INTEGER)');
  writer.close();
}
