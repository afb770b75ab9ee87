import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface ProbeReport {
  readonly jobs: number;
  readonly growthBytes: number;
  readonly signalAborted: boolean;
}

/** Runs the probe in a fresh process with a callable gc(), so nothing else in the suite blurs the heap. */
async function probe(jobs: number): Promise<ProbeReport> {
  const { stdout } = await run(process.execPath, ['--expose-gc', join(__dirname, 'pool-retention-probe.js'), String(jobs)], { timeout: 120_000 });
  return JSON.parse(stdout.trim()) as ProbeReport;
}

describe('core/workers WorkerPool memory under a long-lived combined signal', function () {
  this.timeout(180_000);

  it('keeps nothing of 400 finished jobs (100 KB each) once they are done', async () => {
    const report = await probe(400);
    expect(report.signalAborted).to.equal(false);
    // Holding the tasks would keep about 40 MB; what remains must not scale with the jobs.
    expect(report.growthBytes, `grew by ${(report.growthBytes / 1e6).toFixed(1)} MB`).to.be.below(4_000_000);
  });
});
