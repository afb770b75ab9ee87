import { resolve } from 'node:path';

/** The repository root (tests run compiled from dist/test/...). */
export const projectRoot = resolve(__dirname, '..', '..', '..');

/** The source folder of fixtures, read in place (not copied to dist). */
export const fixturesRoot = resolve(projectRoot, 'test', 'fixtures');
