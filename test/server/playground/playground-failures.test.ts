import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { GatewayError, type SynthesisStream } from '../../../core';
import type { StreamFunction } from '../../../server/app-dependencies';
import { appliedPlan } from '../../support/applied-plan';
import { fixturesRoot } from '../../support/paths';
import { buildTestApp, type TestApp } from '../support/test-app';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const MP3 = readFileSync(join(fixturesRoot, 'audio', 'speech-22050.mp3'));

declare const document: { querySelector(selector: string): { textContent: string | null } };

/** Real mp3 that goes out in pieces, then breaks off as a provider that failed midway. */
const breaksOffMidway: StreamFunction = async (synthesisRequest) => {
  async function* chunks() {
    for (let piece = 0; piece < 2; piece += 1) {
      yield MP3.subarray(piece * 2_000, (piece + 1) * 2_000);
      // The piece leaves the process before the failure cuts the connection.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new GatewayError('TTS_ERR_UPSTREAM', 'the provider broke off');
  }
  const stream: SynthesisStream = { format: synthesisRequest.format, applied: appliedPlan(), provider: 'fake', servedBy: 'tts-1/en-us', instructionsIgnored: false, progress: { bytes: 0 }, chunks: chunks() };
  return stream;
};

/** The playground when the gateway, the network or the stream fails: a clear message, and the page usable again. */
describe('server GET / (the playground) when a call fails', function () {
  this.timeout(120_000);
  let testApp: TestApp;
  let server: Server;
  let browser: Browser | undefined;
  let origin: string;
  let apiKey: string;

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install the Debian package chromium`);
    testApp = await buildTestApp({ stream: breaksOffMidway });
    apiKey = (await testApp.register()).apiKey;
    server = createServer(testApp.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await testApp?.close();
  });

  /** Opens the page, loads the models and voices, picks `format`, presses Speak and returns the alert once shown. */
  async function speakAndReadAlert(format: string, prepare?: (page: Page) => Promise<unknown>): Promise<{ page: Page; alert: string }> {
    const page = await (await browser!.newContext()).newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Load models and voices' }).click();
    await page.waitForSelector('#voice option', { state: 'attached' });
    await page.getByLabel('Format').selectOption(format);
    await prepare?.(page);
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForFunction(() => (document.querySelector('[role="alert"]').textContent ?? '') !== '');
    return { page, alert: (await page.getByRole('alert').textContent()) ?? '' };
  }

  async function expectUsableAgain(page: Page): Promise<void> {
    expect(await page.getByRole('button', { name: 'Speak' }).isDisabled()).to.equal(false);
    expect(await page.locator('#status').textContent()).to.equal('');
    expect(await page.locator('#download').isHidden(), 'no download of an incomplete answer').to.equal(true);
  }

  for (const format of ['mp3', 'wav']) {
    it(`says that the ${format} audio broke off midway, with its request id (not the browser's bare "network error")`, async () => {
      const { page, alert } = await speakAndReadAlert(format);
      expect(alert).to.match(/^The audio broke off after [\d,]+ bytes: the synthesis failed midway or the connection dropped, so it is incomplete\. Request id: [0-9a-f-]{36}\.$/);
      await expectUsableAgain(page);
      await page.context().close();
    });
  }

  it('says the gateway could not be reached when no answer came (not "Failed to fetch")', async () => {
    const { page, alert } = await speakAndReadAlert('mp3', (opened) => opened.route('**/v1/audio/speech', (route) => route.abort('connectionreset')));
    expect(alert).to.equal('Could not reach the gateway: the network failed or the gateway is down. Check the connection and try again.');
    await expectUsableAgain(page);
    await page.context().close();
  });

  it("says when to retry a 503 that is not the gateway's JSON (a proxy's page), from its Retry-After", async () => {
    const { page, alert } = await speakAndReadAlert('mp3', (opened) =>
      opened.route('**/v1/audio/speech', (route) => route.fulfill({ status: 503, contentType: 'text/html', body: '<html>Service Unavailable</html>', headers: { 'Retry-After': '30' } })),
    );
    expect(alert).to.equal('The gateway answered 503 Service Unavailable (retry after 30 s)');
    await expectUsableAgain(page);
    await page.context().close();
  });
});
