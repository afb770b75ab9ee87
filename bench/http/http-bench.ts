/**
 * The gateway's own cost on the HTTP path: the stand-in upstream (its own process), the gateway
 * as `npm start` runs it (node dist/server/main.js, its own process) and autocannon in this one.
 * Each scenario runs against the stand-in directly and through the gateway, in the same run, at
 * 1 and 32 connections; the gateway's CPU, memory and disk writes come from /proc. Then the
 * targets of issue 11 are printed with whether each holds, and last the floor: the `/v1` scenarios
 * through a bare Node proxy (`bare-proxy.ts`) in the gateway's place. Not a test: it asserts nothing.
 *
 * Environment: BENCH_SECONDS (measured seconds per run, default 3), BENCH_ONLY (run only the
 * scenarios whose name contains it), BENCH_PROFILE_DIR (the gateway writes a --cpu-prof there),
 * BENCH_GATEWAY_MAIN (another build's dist/server/main.js, to compare two versions alike).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { exchange, firstJsonLine, freePort, startNode, waitForFirstAnswer, type RunningProcess } from './child-process';
import { gatewayEnvironment, register, START_TIMEOUT_MS, writeGatewayConfig } from './gateway-setup';
import { runLoad, type LoadResult } from './load';
import { measureDurableWrite } from './durable-write-baseline';
import { readProcess } from './process-meter';
import { FLOOR_SCENARIOS, SCENARIO_NAMES, scenarios, speechRouteProbe, throughBareProxy, ttsSync, type Endpoints, type Scenario } from './scenarios';
import { writeSpeechMp3 } from './speech-fixture';
import { addedP50, addedP99, checkTargets, share, type Measurement, type StartupFigures } from './targets';
import { median } from '../median';

const DIST = resolve(__dirname, '..', '..');
const GATEWAY_MAIN = process.env.BENCH_GATEWAY_MAIN ? resolve(process.env.BENCH_GATEWAY_MAIN) : join(DIST, 'server', 'main.js');
const STAND_IN = join(__dirname, 'stand-in-upstream.js');
const BARE_PROXY = join(__dirname, 'bare-proxy.js');
const CONNECTIONS = [1, 32] as const;
/** The stand-in needs little; the gateway's code is still being optimized in its first seconds. */
const DIRECT_WARM_UP_SECONDS = 0.5;
const GATEWAY_WARM_UP_SECONDS = 2;
/**
 * Before any measurement the gateway serves every scenario for this long at 32 connections, as a
 * gateway in service is warm: V8 keeps compiling the functions of a request for its first
 * thousands of requests, on helper threads whose CPU counts here (about 0.5 ms a request at one
 * connection for the scenario measured first, against under 0.1 ms once warm).
 */
const GATEWAY_WARM_START_SECONDS = 3;
const WARM_START_CONNECTIONS = 32;
const STARTUP_TRIALS = 3;
/** How long after its first answer the zero-config gateway's memory is read. */
const SETTLE_MS = 1000;
const MEGABYTE = 1024 * 1024;

const measuredSeconds = Number(process.env.BENCH_SECONDS ?? 3);
const only = process.env.BENCH_ONLY;
const profileDirectory = process.env.BENCH_PROFILE_DIR;

const sleep = (ms: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

function gatewayArguments(configFile?: string): string[] {
  const profile = profileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDirectory)}`] : [];
  return [...profile, GATEWAY_MAIN, ...(configFile ? ['--config', configFile] : [])];
}

function startGateway(cwd: string, configFile: string | undefined, env: NodeJS.ProcessEnv): RunningProcess {
  return startNode(gatewayArguments(configFile), { cwd, env });
}

/** Zero config: a fresh folder, no file, only PORT. Spawn to first answer, and memory once settled. */
async function measureStartup(work: string): Promise<StartupFigures> {
  const answers: number[] = [];
  const memory: number[] = [];
  for (let trial = 0; trial < STARTUP_TRIALS; trial += 1) {
    const folder = join(work, `zero-config-${trial}`);
    mkdirSync(folder);
    const port = await freePort();
    const started = process.hrtime.bigint();
    const gateway = startGateway(folder, undefined, gatewayEnvironment({ PORT: String(port) }));
    try {
      answers.push(await waitForFirstAnswer(`http://127.0.0.1:${port}/api/v1/no-such-route`, started, gateway, START_TIMEOUT_MS));
      await sleep(SETTLE_MS);
      memory.push(readProcess(gateway.pid).rssBytes);
    } finally {
      await gateway.stop();
    }
  }
  return { firstAnswerMs: median(answers), rssBytes: median(memory) };
}

/** Whether the gateway has `/v1/audio/speech`: a gateway without it answers its "No route" 404. */
async function hasSpeechRoute(endpoints: Endpoints): Promise<boolean> {
  const probe = speechRouteProbe(endpoints);
  const answer = await exchange(probe.url, { method: probe.method, headers: { 'content-type': 'application/json', ...probe.headers }, body: probe.body });
  if (answer.status === 404 && answer.body.includes('No route')) return false;
  if (answer.status !== 200) throw new Error(`/v1/audio/speech answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return true;
}

/** Whether the gateway has a result cache: a repeated tts-sync then says `X-TTS-Cache: hit`. */
async function hasResultCache(endpoints: Endpoints): Promise<boolean> {
  const request = ttsSync(endpoints, true);
  let answer: Awaited<ReturnType<typeof exchange>> | undefined;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    answer = await exchange(request.url, { method: request.method, headers: { 'content-type': 'application/json', ...request.headers }, body: request.body });
  }
  return answer?.headers['x-tts-cache'] === 'hit';
}

/** One request through the gateway before measuring, so a broken setup fails loudly. */
async function checkPassThrough(scenario: Scenario, audioBytes: number): Promise<void> {
  const { gateway } = scenario;
  const answer = await exchange(gateway.url, { method: gateway.method, headers: { 'content-type': 'application/json', ...gateway.headers }, body: gateway.body });
  if (answer.status !== 200) throw new Error(`${scenario.name} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  const size = (JSON.parse(answer.body) as { data: { file_size: number } }).data.file_size;
  if (size !== audioBytes) throw new Error(`${scenario.name} stored ${size} bytes, the stand-in sent ${audioBytes}`);
}

/** `measured`: the process in the gateway's place (the gateway, or the bare proxy). */
async function measure(scenario: Scenario, connections: number, pids: { measured: number; standIn: number }): Promise<Measurement> {
  await runLoad(scenario.direct, connections, DIRECT_WARM_UP_SECONDS);
  const standInBefore = readProcess(pids.standIn);
  const direct = await runLoad(scenario.direct, connections, measuredSeconds);
  const standInAfter = readProcess(pids.standIn);
  await runLoad(scenario.gateway, connections, GATEWAY_WARM_UP_SECONDS);
  const before = readProcess(pids.measured);
  const gateway = await runLoad(scenario.gateway, connections, measuredSeconds);
  const after = readProcess(pids.measured);
  for (const [label, result] of [['direct', direct], ['gateway', gateway]] as const) {
    if (result.unexpected > 0) console.log(`  warning: ${scenario.name} c=${connections} ${label}: ${result.unexpected} unexpected answers or errors`);
  }
  return {
    scenario: scenario.name,
    connections,
    direct,
    gateway,
    directCpuMsPerRequest: (standInAfter.cpuMs - standInBefore.cpuMs) / direct.requests,
    cpuMsPerRequest: (after.cpuMs - before.cpuMs) / gateway.requests,
    mainThreadCpuMsPerRequest: (after.mainThreadCpuMs - before.mainThreadCpuMs) / gateway.requests,
    writeBytesPerRequest: (after.writeBytes - before.writeBytes) / gateway.requests,
    rssBytes: after.rssBytes,
  };
}

const column = (text: string, width: number) => text.padStart(width);
const latency = (result: LoadResult) => `${result.p50Ms.toFixed(2)}/${result.p99Ms.toFixed(2)}`;

function printMeasurements(measurements: readonly Measurement[], measured = 'gateway'): void {
  const short = measured === 'gateway' ? 'gw' : measured;
  const header = ['scenario'.padEnd(26), column('c', 3), column('direct p50/p99', 15), column(`${measured} p50/p99`, 16), column('added p50/p99', 14),
    column('direct req/s', 13), column(`${short} req/s`, 11), column('share', 6), column('direct CPU', 11), column('CPU ms/req', 11), column('main', 6), column('RSS MB', 7), column('disk B/req', 11)];
  console.log(header.join(' '));
  for (const entry of measurements) {
    console.log([
      entry.scenario.padEnd(26),
      column(String(entry.connections), 3),
      column(latency(entry.direct), 15),
      column(latency(entry.gateway), 16),
      column(`+${addedP50(entry).toFixed(2)}/+${addedP99(entry).toFixed(2)}`, 14),
      column(entry.direct.requestsPerSecond.toFixed(0), 13),
      column(entry.gateway.requestsPerSecond.toFixed(0), 11),
      column(share(entry).toFixed(2), 6),
      column(entry.directCpuMsPerRequest.toFixed(3), 11),
      column(entry.cpuMsPerRequest.toFixed(3), 11),
      column(entry.mainThreadCpuMsPerRequest.toFixed(3), 6),
      column((entry.rssBytes / MEGABYTE).toFixed(0), 7),
      column(entry.writeBytesPerRequest.toFixed(0), 11),
    ].join(' '));
  }
}

function describeMachine(): string {
  const processors = cpus();
  return `${processors.length} x ${processors[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Linux ${release()}, Node ${process.version}`;
}

/**
 * The `/v1/audio/speech` scenarios once more with the bare proxy in the gateway's place: how far
 * toward each target a Node proxy with no features at all gets on this machine, in this run.
 */
async function measureFloor(chosen: readonly Scenario[], endpoints: Endpoints, standInPid: number, work: string, running: RunningProcess[]): Promise<void> {
  const floorScenarios = chosen.filter((scenario) => FLOOR_SCENARIOS.includes(scenario.name));
  if (floorScenarios.length === 0) return;
  const proxyProcess = startNode([BARE_PROXY, endpoints.upstream], { cwd: work, env: process.env });
  running.push(proxyProcess);
  const proxy = `http://127.0.0.1:${(await firstJsonLine<{ port: number }>(proxyProcess, START_TIMEOUT_MS)).port}`;
  const floor: Measurement[] = [];
  for (const scenario of floorScenarios) {
    const proxied = throughBareProxy(scenario, endpoints, proxy);
    for (const connections of CONNECTIONS) floor.push(await measure(proxied, connections, { measured: proxyProcess.pid, standIn: standInPid }));
  }
  console.log('\nthe floor: a bare Node proxy (node http + undici Pool, no key, checks, metrics or log) in the gateway\'s place, this run:');
  printMeasurements(floor, 'proxy');
}

export async function runHttpBench(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'tts-gateway-bench-'));
  const running: RunningProcess[] = [];
  try {
    if (process.env.BENCH_GATEWAY_MAIN) console.log(`gateway under test: ${GATEWAY_MAIN}`);
    console.log(
      `HTTP bench: ${describeMachine()}; ${measuredSeconds} s per run after ${DIRECT_WARM_UP_SECONDS} s (direct) or ${GATEWAY_WARM_UP_SECONDS} s (gateway) of warm-up, ` +
        `the gateway first warmed with every scenario (${GATEWAY_WARM_START_SECONDS} s each at ${WARM_START_CONNECTIONS} connections); latencies in ms`,
    );
    const mp3 = join(work, 'speech.mp3');
    const audioBytes = await writeSpeechMp3(mp3);
    const startup = await measureStartup(work);
    console.log(`zero config: first answer ${startup.firstAnswerMs.toFixed(0)} ms after spawn, RSS ${(startup.rssBytes / MEGABYTE).toFixed(0)} MB ${SETTLE_MS} ms later (median of ${STARTUP_TRIALS})`);

    const standIn = startNode([STAND_IN, mp3], { cwd: work, env: process.env });
    running.push(standIn);
    const upstream = `http://127.0.0.1:${(await firstJsonLine<{ port: number }>(standIn, START_TIMEOUT_MS)).port}`;
    const folder = join(work, 'gateway');
    mkdirSync(folder);
    const port = await freePort();
    const configFile = writeGatewayConfig(folder, port, upstream);
    const gatewayProcess = startGateway(folder, configFile, gatewayEnvironment());
    running.push(gatewayProcess);
    const gateway = `http://127.0.0.1:${port}`;
    await waitForFirstAnswer(`${gateway}/api/v1/no-such-route`, process.hrtime.bigint(), gatewayProcess, START_TIMEOUT_MS);
    const endpoints: Endpoints = { upstream, gateway, apiKey: await register(gateway), model: 'standin-tts-1' };
    const speechRoute = await hasSpeechRoute(endpoints);
    if (!speechRoute) console.log('note: the gateway has no /v1/audio/speech route yet: its audio and sse scenarios are skipped');
    const resultCache = await hasResultCache(endpoints);
    if (!resultCache) console.log('note: the gateway has no result cache: the cache-hit scenario is skipped');
    console.log(`stand-in MP3: ${audioBytes} bytes of eSpeak NG speech; pass-through requests send Cache-Control: no-store`);
    const durableWrite = measureDurableWrite(folder, readFileSync(mp3));
    console.log(`the disk's own cost of one durable save of it (create, write, fdatasync, folder fsync; no gateway): ${durableWrite.cpuMs.toFixed(3)} ms CPU, ${durableWrite.p50Ms.toFixed(2)} ms p50`);

    const chosen = scenarios(endpoints, { speechRoute, resultCache }).filter((scenario) => !only || scenario.name.includes(only));
    const syncScenario = chosen.find((scenario) => scenario.name === SCENARIO_NAMES.ttsSync);
    if (syncScenario) await checkPassThrough(syncScenario, audioBytes);
    for (const scenario of chosen) await runLoad(scenario.gateway, WARM_START_CONNECTIONS, GATEWAY_WARM_START_SECONDS);
    const measurements: Measurement[] = [];
    for (const scenario of chosen) {
      for (const connections of CONNECTIONS) measurements.push(await measure(scenario, connections, { measured: gatewayProcess.pid, standIn: standIn.pid }));
    }
    console.log('');
    printMeasurements(measurements);
    console.log('\ntargets (issue 11; the cache hit: issue 10):');
    for (const target of checkTargets(measurements, startup, audioBytes)) {
      const verdict = target.holds === undefined ? 'skipped' : target.holds ? 'holds' : 'MISSED';
      console.log(`  ${target.label.padEnd(58)} ${target.shown.padStart(16)}  ${target.limit.padEnd(18)} ${verdict}`);
    }
    await measureFloor(chosen, endpoints, standIn.pid, work, running);
    const syncAtOne = measurements.find((entry) => entry.scenario === SCENARIO_NAMES.ttsSync && entry.connections === 1);
    if (syncAtOne) {
      const withoutSave = syncAtOne.cpuMsPerRequest - durableWrite.cpuMs;
      console.log(`  (CPU per tts-sync at c=1 less the disk's own cost of its save, measured alone above: ${withoutSave.toFixed(2)} ms; the target counts the save)`);
    }
  } finally {
    await Promise.all(running.reverse().map((child) => child.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}
