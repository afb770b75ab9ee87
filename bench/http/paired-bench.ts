/**
 * Two builds of the gateway side by side, to judge a change on a VM whose speed swings by the
 * hour: both run at once on one stand-in, and short runs alternate between them (which goes
 * first swaps each round), so that a slow minute costs both alike. Prints the medians of the
 * event loop's CPU per request and of p50, and in how many rounds the build under test was the
 * cheaper. Not a test: it asserts nothing.
 *
 * Environment: BENCH_BASELINE_MAIN (required: the other build's dist/server/main.js),
 * BENCH_ONLY (the scenario, default `/v1/audio/speech audio`), BENCH_CONNECTIONS (default 32),
 * BENCH_ROUNDS (default 16), BENCH_SECONDS (per run, default 2).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { firstJsonLine, freePort, startNode, waitForFirstAnswer, type RunningProcess } from './child-process';
import { gatewayEnvironment, register, START_TIMEOUT_MS, writeGatewayConfig } from './gateway-setup';
import { runLoad } from './load';
import { readProcess } from './process-meter';
import { SCENARIO_NAMES, scenarios, type Scenario } from './scenarios';
import { writeSpeechMp3 } from './speech-fixture';
import { median } from '../median';

/** Each gateway serves the scenario this long before the first round: V8 is still compiling before. */
const WARM_UP_SECONDS = 6;

interface Contender {
  readonly label: string;
  readonly process: RunningProcess;
  readonly scenario: Scenario;
  readonly cpuMsPerRequest: number[];
  readonly p50Ms: number[];
}

async function startContender(label: string, main: string, work: string, upstream: string, scenarioName: string): Promise<Contender> {
  const folder = join(work, label);
  mkdirSync(folder);
  const port = await freePort();
  const configFile = writeGatewayConfig(folder, port, upstream);
  const gatewayProcess = startNode([main, '--config', configFile], { cwd: folder, env: gatewayEnvironment() });
  const gateway = `http://127.0.0.1:${port}`;
  await waitForFirstAnswer(`${gateway}/api/v1/no-such-route`, process.hrtime.bigint(), gatewayProcess, START_TIMEOUT_MS);
  const endpoints = { upstream, gateway, apiKey: await register(gateway), model: 'standin-tts-1' };
  const scenario = scenarios(endpoints, { speechRoute: true, resultCache: true }).find((candidate) => candidate.name.includes(scenarioName));
  if (!scenario) throw new Error(`no scenario named like "${scenarioName}"; choose from ${Object.values(SCENARIO_NAMES).join(', ')}`);
  return { label, process: gatewayProcess, scenario, cpuMsPerRequest: [], p50Ms: [] };
}

async function runRound(contender: Contender, connections: number, seconds: number): Promise<void> {
  const before = readProcess(contender.process.pid);
  const result = await runLoad(contender.scenario.gateway, connections, seconds);
  const after = readProcess(contender.process.pid);
  contender.cpuMsPerRequest.push((after.mainThreadCpuMs - before.mainThreadCpuMs) / result.requests);
  contender.p50Ms.push(result.p50Ms);
}

export async function runPairedBench(): Promise<void> {
  const baselineMain = process.env.BENCH_BASELINE_MAIN;
  if (!baselineMain) throw new Error('the paired bench needs BENCH_BASELINE_MAIN: the dist/server/main.js of the build to compare with');
  const scenarioName = process.env.BENCH_ONLY ?? SCENARIO_NAMES.speechAudio;
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 16);
  const seconds = Number(process.env.BENCH_SECONDS ?? 2);
  const work = mkdtempSync(join(tmpdir(), 'tts-gateway-paired-'));
  const running: RunningProcess[] = [];
  try {
    const mp3 = join(work, 'speech.mp3');
    await writeSpeechMp3(mp3);
    const standIn = startNode([join(__dirname, 'stand-in-upstream.js'), mp3], { cwd: work, env: process.env });
    running.push(standIn);
    const upstream = `http://127.0.0.1:${(await firstJsonLine<{ port: number }>(standIn, START_TIMEOUT_MS)).port}`;
    const baseline = await startContender('baseline', resolve(baselineMain), work, upstream, scenarioName);
    running.push(baseline.process);
    const underTest = await startContender('this build', resolve(__dirname, '..', '..', 'server', 'main.js'), work, upstream, scenarioName);
    running.push(underTest.process);
    for (const contender of [baseline, underTest]) await runLoad(contender.scenario.gateway, connections, WARM_UP_SECONDS);
    for (let round = 0; round < rounds; round += 1) {
      for (const contender of round % 2 === 0 ? [underTest, baseline] : [baseline, underTest]) await runRound(contender, connections, seconds);
    }
    const cheaperRounds = underTest.cpuMsPerRequest.filter((cpu, round) => cpu < baseline.cpuMsPerRequest[round]).length;
    console.log(`paired bench: ${baseline.scenario.name} at ${connections} connections, ${rounds} alternating rounds of ${seconds} s, both gateways running`);
    for (const contender of [baseline, underTest]) {
      console.log(`  ${contender.label.padEnd(11)} event-loop CPU per request ${median(contender.cpuMsPerRequest).toFixed(3)} ms, p50 ${median(contender.p50Ms).toFixed(2)} ms (medians)`);
    }
    console.log(`  this build was the cheaper in ${cheaperRounds} of ${rounds} rounds (two copies of one build differ by a few % here: which one runs where)`);
  } finally {
    await Promise.all(running.reverse().map((child) => child.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}
