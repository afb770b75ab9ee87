import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The gateway's package.json, two folders above dist/server (or server/ when run from source). */
function readPackageJson(): { name: string; version: string } {
  for (const candidate of [resolve(__dirname, '..', '..', 'package.json'), resolve(__dirname, '..', 'package.json')]) {
    try {
      const parsed = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown; version?: unknown };
      if (parsed.name === 'tts-gateway' && typeof parsed.version === 'string') return { name: parsed.name, version: parsed.version };
    } catch {
      // Not there: try the next place.
    }
  }
  return { name: 'tts-gateway', version: '0.0.0' };
}

/** The installed gateway's version, for /openapi.json and `tts-gateway --version`. */
export const GATEWAY_VERSION = readPackageJson().version;
