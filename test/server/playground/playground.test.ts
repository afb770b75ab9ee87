import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestGateway } from '../../e2e/gateway-harness';

/** Debian's chromium (apt), never a downloaded browser; .ci/run installs it. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * The few browser globals the functions below read inside the page. The tests compile without the
 * DOM's types, and functions (not strings) are needed: the page's CSP forbids evaluating strings.
 */
interface PageElement {
  readonly id: string;
  readonly value: string;
  readonly textContent: string | null;
  readonly duration: number;
}
declare const document: { querySelector(selector: string): PageElement; readonly activeElement: PageElement | null };
declare const sessionStorage: { readonly length: number };
declare const localStorage: { readonly length: number };
declare const MediaSource: { isTypeSupported(type: string): boolean };

/** What a page did that the playground must never do: console errors, uncaught errors, requests elsewhere. */
interface PageRecord {
  readonly page: Page;
  readonly consoleErrors: string[];
  readonly requests: string[];
}

describe('server GET / (the playground, in a real browser)', function () {
  this.timeout(120_000);
  let server: Server;
  let dispose: (() => Promise<void>) | undefined;
  let browser: Browser | undefined;
  let origin: string;
  let apiKey: string;

  before(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install the Debian package chromium (apt-get install chromium; .ci/run installs it)`);
    const started = await startTestGateway();
    dispose = started.dispose;
    server = createServer(started.gateway.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const registered = await fetch(`${origin}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'playground@example.com', password: 'password-123' }),
    });
    expect(registered.status).to.equal(200);
    apiKey = ((await registered.json()) as { data: { apiKey: string } }).data.apiKey;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await dispose?.();
  });

  async function openPlayground(): Promise<PageRecord> {
    const context = await browser!.newContext();
    const page = await context.newPage();
    const record: PageRecord = { page, consoleErrors: [], requests: [] };
    page.on('console', (message) => {
      if (message.type() === 'error') record.consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => record.consoleErrors.push(`uncaught: ${error.message}`));
    page.on('request', (request) => record.requests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) record.consoleErrors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${origin}/`);
    return record;
  }

  /** Fills the key, loads the models, picks tts-1 and the first voice (of `language` when given). */
  async function chooseVoice(page: Page, language?: string): Promise<string> {
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Load models and voices' }).click();
    await page.waitForSelector('#model option[value="tts-1"]', { state: 'attached' });
    await page.getByLabel('Model').selectOption('tts-1');
    await page.waitForSelector('#voice option', { state: 'attached' });
    if (language) {
      await page.getByLabel('Language').selectOption(language);
      expect(await page.getByLabel('Language').inputValue()).to.equal(language);
    }
    const voice = await page.locator('#voice option').first().getAttribute('value');
    await page
      .getByLabel('Voice')
      .selectOption(voice!)
      .catch(async (error: unknown) => {
        // Say what the page says (a failed voice list empties the select and shows why).
        const shown = await page.locator('[role="alert"]').allTextContents();
        throw new Error(`could not choose voice ${voice}: ${(error as Error).message.split('\n')[0]}; the page says: ${JSON.stringify(shown)}`);
      });
    return voice!;
  }

  /** Waits until the <audio> element knows a real, finite, positive duration, and returns it. */
  async function audioDuration(page: Page): Promise<number> {
    await page.waitForFunction(() => Number.isFinite(document.querySelector('audio').duration) && document.querySelector('audio').duration > 0);
    return page.evaluate(() => document.querySelector('audio').duration);
  }

  function expectOnlySameOrigin(record: PageRecord): void {
    const foreign = record.requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
    expect(foreign, 'requests to another origin').to.deep.equal([]);
  }

  it('serves its page, script and style sheet with their content types, under the CSP', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'").and.include("media-src 'self' blob:");
    const html = await page.text();
    expect(html).to.not.match(/<script>[^<]|\son[a-z]+="/);
    expect(html).to.not.match(/https?:\/\//);
    expect((await fetch(`${origin}/playground/playground.js`)).headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await fetch(`${origin}/playground/playground.css`)).headers.get('content-type')).to.match(/^text\/css/);
  });

  it('speaks mp3 as it streams after a click: audio with a real duration, X-TTS-Applied and a download', async () => {
    const record = await openPlayground();
    const { page } = record;
    await chooseVoice(page);
    await page.getByLabel('Text').fill('Hello from the playground. This sentence is spoken by the embedded engine.');
    await page.getByLabel('Speed').fill('1.25');
    expect(await page.locator('#speed-value').textContent()).to.equal('1.25');
    // This browser streams mp3 through MediaSource, so the page takes its streaming path here.
    expect(await page.evaluate(() => MediaSource.isTypeSupported('audio/mpeg'))).to.equal(true);
    await page.getByRole('button', { name: 'Speak' }).click();

    expect(await audioDuration(page)).to.be.greaterThan(1);
    await page.waitForSelector('#download:not([hidden])');
    expect(await page.locator('#applied').textContent()).to.match(/speed=\w+; pitch=\w+; volume=\w+; format=\w+/);
    expect(await page.locator('#download').getAttribute('href')).to.match(/^blob:/);
    expect(await page.locator('#download').getAttribute('download')).to.equal('speech.mp3');
    expect(await page.getByRole('alert').textContent()).to.equal('');
    // "Remember in this tab" is off by default: the key is kept nowhere.
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).to.equal(0);
    expect(record.consoleErrors).to.deep.equal([]);
    expectOnlySameOrigin(record);
    expect(record.requests).to.include(`${origin}/v1/audio/speech`);
    await page.context().close();
  });

  it('speaks wav from the keyboard, with the voices filtered by language', async () => {
    const record = await openPlayground();
    const { page } = record;
    const languages = await (async () => {
      await chooseVoice(page);
      return (await page.locator('#language option').evaluateAll((options) => options.map((option) => option.getAttribute('value') ?? ''))).filter(Boolean);
    })();
    expect(languages.length).to.be.greaterThan(0);
    const language = languages.includes('en-US') ? 'en-US' : languages[0];
    await chooseVoice(page, language);
    const shownLanguages = await page.locator('#voice option').evaluateAll((options) => options.map((option) => option.textContent));
    expect(shownLanguages.length).to.be.greaterThan(0);
    for (const label of shownLanguages) expect(label).to.include(language);
    await page.getByLabel('Format').selectOption('wav');
    await page.getByLabel('Text').fill('Spoken from the keyboard.');
    await page.getByLabel('Text').press('Tab');
    // Tab through the sliders and the format select to the Speak button, then press Enter on it.
    const focused = () => page.evaluate(() => document.activeElement?.id);
    for (let step = 0; step < 10 && (await focused()) !== 'speak-button'; step++) await page.keyboard.press('Tab');
    expect(await focused()).to.equal('speak-button');
    await page.keyboard.press('Enter');

    expect(await audioDuration(page)).to.be.greaterThan(0.5);
    await page.waitForSelector('#download:not([hidden])');
    expect(await page.locator('#download').getAttribute('download')).to.equal('speech.wav');
    expect(await page.locator('#applied').textContent()).to.include('format=');
    expect(record.consoleErrors).to.deep.equal([]);
    expectOnlySameOrigin(record);
    await page.context().close();
  });

  it('registers through the page and fills the key it was given', async () => {
    const record = await openPlayground();
    const { page } = record;
    await page.locator('summary').click();
    await page.getByLabel('Email').fill('page-user@example.com');
    await page.getByLabel('Password').fill('password-456');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForFunction(() => document.querySelector('#api-key').value.length > 0);
    const key = await page.getByLabel('API key').inputValue();
    const models = await fetch(`${origin}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(models.status).to.equal(200);
    await page.waitForSelector('#model option[value="tts-1"]', { state: 'attached' });
    expect(record.consoleErrors).to.deep.equal([]);
    expectOnlySameOrigin(record);
    await page.context().close();
  });

  it('shows the gateway error message in the alert region for a bad key', async () => {
    const answer = await fetch(`${origin}/v1/models`, { headers: { authorization: 'Bearer tts-not-a-real-key' } });
    expect(answer.status).to.equal(401);
    const expected = ((await answer.json()) as { error: { message: string } }).error.message;
    const record = await openPlayground();
    const { page } = record;
    await page.getByLabel('API key').fill('tts-not-a-real-key');
    await page.getByRole('button', { name: 'Load models and voices' }).click();
    await page.waitForFunction(() => document.querySelector('[role="alert"]').textContent !== '');
    expect(await page.getByRole('alert').textContent()).to.equal(expected);
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForFunction(() => document.querySelector('#status').textContent === '');
    expect(await page.getByRole('alert').textContent()).to.not.equal('');
    expectOnlySameOrigin(record);
    await page.context().close();
  });

  it('counts the text as the gateway does (an emoji is one character) and refuses more than 10,000 before asking', async () => {
    const record = await openPlayground();
    const { page } = record;
    await chooseVoice(page);
    // 6,000 emoji are 12,000 UTF-16 units: a textarea maxlength of 10,000 would cut them at 5,000.
    await page.getByLabel('Text').fill('😀'.repeat(6_000));
    expect(await page.getByLabel('Text').evaluate((text) => Array.from((text as unknown as PageElement).value).length)).to.equal(6_000);
    expect(await page.locator('#text-count').textContent()).to.equal('6,000 / 10,000 characters');
    await page.getByLabel('Text').fill('a'.repeat(10_001));
    expect(await page.locator('#text-count').textContent()).to.equal('10,001 / 10,000 characters');
    const speechRequests = () => record.requests.filter((url) => url.endsWith('/v1/audio/speech')).length;
    await page.getByRole('button', { name: 'Speak' }).click();
    await page.waitForFunction(() => document.querySelector('[role="alert"]').textContent !== '');
    expect(await page.getByRole('alert').textContent()).to.equal('The text has 10,001 characters; the gateway takes at most 10,000.');
    expect(speechRequests()).to.equal(0);
    expect(record.consoleErrors).to.deep.equal([]);
    await page.context().close();
  });
});
