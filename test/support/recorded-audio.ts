import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesRoot } from './paths';

/** The audio of a recorded synthesis answer (the first call of `test/fixtures/<plugin>/<scenario>.json`, stored as hex). */
export function recordedAudio(plugin: string, scenario: string): Uint8Array {
  const [call] = JSON.parse(readFileSync(join(fixturesRoot, plugin, `${scenario}.json`), 'utf8')) as { response: unknown }[];
  return new Uint8Array(Buffer.from(String(call.response), 'hex'));
}
