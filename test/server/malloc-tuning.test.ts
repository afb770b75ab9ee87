import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MALLOC_TUNING, missingMallocTuning, withMallocTuning } from '../../server/malloc-tuning';

const PACKAGE_JSON = join(__dirname, '..', '..', '..', 'package.json');

describe('glibc malloc tuning', () => {
  it('adds each setting to an environment without it, and keeps the operator values', () => {
    const tuned = withMallocTuning({ PORT: '8080', MALLOC_ARENA_MAX: '4' });
    expect(tuned.PORT).to.equal('8080');
    expect(tuned.MALLOC_ARENA_MAX).to.equal('4');
    for (const [name, value] of Object.entries(MALLOC_TUNING)) if (name !== 'MALLOC_ARENA_MAX') expect(tuned[name]).to.equal(value);
  });

  it('names the settings missing on glibc, and none elsewhere', () => {
    expect(missingMallocTuning({}, () => true)).to.deep.equal(Object.keys(MALLOC_TUNING));
    expect(missingMallocTuning(withMallocTuning({}), () => true)).to.deep.equal([]);
    expect(missingMallocTuning({ MALLOC_ARENA_MAX: '2' }, () => true)).to.not.include('MALLOC_ARENA_MAX');
    expect(missingMallocTuning({}, () => false)).to.deep.equal([]);
  });

  it('asks whether this is glibc only when a setting is missing (the answer costs a diagnostic report)', () => {
    let asked = 0;
    const onGlibc = () => {
      asked += 1;
      return true;
    };
    missingMallocTuning(withMallocTuning({}), onGlibc);
    expect(asked).to.equal(0);
    missingMallocTuning({}, onGlibc);
    expect(asked).to.equal(1);
  });

  it('is what npm start and npm run gateway start the gateway with (an operator value still wins)', () => {
    const scripts = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const script of [scripts.start, scripts.gateway]) {
      for (const [name, value] of Object.entries(MALLOC_TUNING)) expect(script).to.include(`${name}=\${${name}:-${value}}`);
    }
  });
});
