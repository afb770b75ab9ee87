import winston from 'winston';
import TransportStream from 'winston-transport';
import type { LoggingConfig } from '../config/types';

/** Fields that must never reach a log line at any level: credentials and the user's text. */
const SECRET_FIELDS = new Set(['apikey', 'api_key', 'x-api-key', 'password', 'authorization', 'text', 'input', 'transcript', 'ssml', 'secretaccesskey']);
/** Levels scrubbed below an entry; what is deeper is not written at all (never written unscrubbed). */
const MAX_DEPTH = 16;
const REDACTED = '[redacted]';
const TOO_DEEP = '[too deep]';
const CIRCULAR = '[Circular]';

/** Where winston transports read the finished line (triple-beam's MESSAGE). */
const MESSAGE = Symbol.for('message');

const isSecret = (key: string): boolean => SECRET_FIELDS.has(key.toLowerCase());

/**
 * `value` with every secret field below it replaced. Objects without one are returned as they
 * are (most log lines have none, so most lines copy nothing); the caller's objects are never changed.
 */
function scrub(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  // A cycle is cut here: the object above it is being copied, and the original must not be written.
  if (ancestors.includes(value)) return CIRCULAR;
  if (depth > MAX_DEPTH) return TOO_DEEP;
  ancestors.push(value);
  try {
    return Array.isArray(value) ? scrubArray(value, depth) : scrubRecord(value as Record<string, unknown>, depth);
  } finally {
    ancestors.pop();
  }
}

/** The objects above the one being scrubbed (one entry is scrubbed at a time, synchronously). */
const ancestors: object[] = [];

function scrubArray(value: readonly unknown[], depth: number): readonly unknown[] {
  let copy: unknown[] | undefined;
  value.forEach((item: unknown, index) => {
    const clean = scrub(item, depth + 1);
    if (clean !== item) (copy ??= [...value])[index] = clean;
  });
  return copy ?? value;
}

function scrubRecord(record: Record<string, unknown>, depth: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const clean = isSecret(key) ? REDACTED : scrub(record[key], depth + 1);
    if (clean !== record[key]) (copy ??= { ...record })[key] = clean;
  }
  return copy ?? record;
}

/** Replaces secret fields anywhere in a log entry (winston hands each entry over as a fresh object). */
const redact = winston.format((entry) => {
  for (const key of Object.keys(entry)) entry[key] = isSecret(key) ? REDACTED : scrub(entry[key], 0);
  return entry;
});

/** For the rare entry JSON.stringify refuses: cycles become "[Circular]", BigInts strings. */
function tolerantStringify(entry: object): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(entry, (key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) return CIRCULAR;
      seen.add(value);
    }
    return value;
  });
}

/** The current time as ISO 8601; the part up to the seconds is kept, since most lines share it. */
let isoSecond = -1;
let isoPrefix = '';
function isoNow(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  return `${isoPrefix}${String(now % 1000).padStart(3, '0')}Z`;
}

/** One JSON object per line, level, message and time first so that a reader finds them. */
const jsonLine = winston.format((entry) => {
  // Assigned onto the first three, the entry keeps them first (their values are its own) in one copy.
  const ordered = Object.assign({ level: entry.level, message: entry.message, timestamp: isoNow() }, entry);
  let line: string;
  try {
    line = JSON.stringify(ordered);
  } catch {
    line = tolerantStringify(ordered);
  }
  (entry as LogEntry)[MESSAGE] = line;
  return entry;
});

type LogEntry = winston.Logform.TransformableInfo & { [MESSAGE]?: unknown };

/** Transports holding lines not yet written; written synchronously if the process exits first. */
const unwritten = new Set<BatchedStdout>();
let exitHookInstalled = false;

/** How long a finished line may wait for others to share its write. */
const BATCH_WAIT_MS = 25;
/** Written at once from this size on, so a burst never holds much. */
const BATCH_MAX_CHARACTERS = 32 * 1024;

/**
 * Writes finished lines to stdout, many in one write: each write to a pipe wakes its reader (a
 * log collector), and on a small virtual machine that wake-up cost as much CPU as a whole request
 * of the gateway's own. A line waits at most 25 ms; lines still waiting when the process exits
 * (a normal stop, a signal it handles, an uncaught error) are written then. Only a process killed
 * outright (SIGKILL, out of memory) loses its last 25 ms of lines.
 */
class BatchedStdout extends TransportStream {
  private lines: string[] = [];
  private characters = 0;
  private timer: NodeJS.Timeout | undefined;

  override log(entry: LogEntry, callback: () => void): void {
    const line = String(entry[MESSAGE]);
    this.lines.push(line);
    this.characters += line.length + 1;
    if (this.characters >= BATCH_MAX_CHARACTERS) this.flush();
    else if (!this.timer) {
      unwritten.add(this);
      this.timer = setTimeout(() => this.flush(), BATCH_WAIT_MS);
      this.timer.unref();
    }
    callback();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    unwritten.delete(this);
    if (this.lines.length === 0) return;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    this.characters = 0;
    // stdout is synchronous for files and pipes on Linux, so lines written at exit are not lost.
    process.stdout.write(text);
  }
}

function batchedStdout(): BatchedStdout {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const transport of unwritten) transport.flush();
    });
  }
  return new BatchedStdout();
}

/** JSON lines for production, readable lines for development. */
export function createLogger(config: LoggingConfig): winston.Logger {
  const format =
    config.format === 'json'
      ? winston.format.combine(redact(), jsonLine())
      : winston.format.combine(
          redact(),
          winston.format.timestamp({ format: 'HH:mm:ss.SSS' }),
          winston.format.printf(({ timestamp, level, message, ...meta }) => {
            const details = Object.keys(meta).length > 0 ? ` ${JSON.stringify(meta)}` : '';
            return `${String(timestamp)} ${level} ${String(message)}${details}`;
          }),
        );
  return skipDisabledLevels(winston.createLogger({ level: config.level, format, transports: [batchedStdout()] }));
}

/**
 * winston formats every entry (redaction, JSON) and passes it through its streams before the
 * transport drops one below its level: a `debug` line at `info` cost as much as a written one,
 * on every request. Each level's method now returns at once while that level is off; the
 * check is made per call, so a level changed at run time still takes effect.
 */
function skipDisabledLevels(logger: winston.Logger): winston.Logger {
  type LevelMethod = (this: winston.Logger | undefined, ...entry: unknown[]) => winston.Logger;
  const methods = logger as unknown as Record<string, LevelMethod>;
  for (const level of Object.keys(logger.levels)) {
    const write = methods[level];
    // `this` as winston's own methods take it: a child logger (or none, when called unbound).
    methods[level] = function (this: winston.Logger | undefined, ...entry: unknown[]) {
      const target = this ?? logger;
      return target.isLevelEnabled(level) ? write.apply(target, entry) : target;
    };
  }
  return logger;
}
