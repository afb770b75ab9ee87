/**
 * A keyed table for entries that come and go at request rate (work in flight: responses, saves,
 * shared syntheses), in place of a long-lived Map or Set.
 *
 * On Node 20, V8 keeps what a busy Map's or Set's removed entries pointed to alive through its
 * young-generation collections and promotes it to the old generation: each entry's whole request
 * (its response, headers, closures) then outlives the request until a full collection. Measured in
 * a loop adding an object with a few hundred small objects behind it and deleting it again, with
 * 1 to 300 entries in the table: 0.4 to 2 MB promoted per young collection for a Map or a Set, and
 * about 0.5 KB for a plain object keyed by number (13 KB by string), a linked list or a WeakSet,
 * which also ran 3 to 4 times as many requests. In the gateway, one Set of the responses in flight
 * made a keyed GET a third slower for good once synthesis traffic had started it. A plain object's
 * dictionary keeps no such trail, so this table is one.
 */
export class TurnoverTable<Value> {
  private entries: Record<string, Value> = Object.create(null) as Record<string, Value>;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string | number): Value | undefined {
    return this.entries[key];
  }

  has(key: string | number): boolean {
    return key in this.entries;
  }

  set(key: string | number, value: Value): void {
    if (!(key in this.entries)) this.count += 1;
    this.entries[key] = value;
  }

  /** Removes the entry; true when there was one. */
  delete(key: string | number): boolean {
    if (!(key in this.entries)) return false;
    delete this.entries[key];
    this.count -= 1;
    return true;
  }

  /** The values as they are now: the table may change while the caller goes through them. */
  values(): Value[] {
    return Object.values(this.entries);
  }

  clear(): void {
    this.entries = Object.create(null) as Record<string, Value>;
    this.count = 0;
  }
}
