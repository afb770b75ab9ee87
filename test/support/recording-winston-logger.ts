import { Writable } from 'node:stream';
import winston from 'winston';

/**
 * A winston logger writing JSON lines, as the gateway's does, into `lines` (each parsed), from
 * `level` up: for tests that compose a gateway and read what it logged.
 */
export function recordingWinstonLogger<Line = Record<string, unknown>>(lines: Line[], level = 'warn'): winston.Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Line);
      done();
    },
  });
  return winston.createLogger({ level, format: winston.format.json(), transports: [new winston.transports.Stream({ stream: sink })] });
}
