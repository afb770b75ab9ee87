import { badUpstreamResponse, type VoiceGender, type VoiceInfo } from '../../core';
import { requestVoicePage } from './client';
import { PROVIDER } from './errors';
import type { CartesiaOptions } from './options-schema';

/** One voice of `GET /voices`. */
interface CartesiaVoice {
  readonly id?: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly language?: unknown;
  readonly gender?: unknown;
  /** `[{locale: 'en-US', is_native: true}, ...]`: the native locale first, then cross-lingual ones. */
  readonly locales?: unknown;
}

/**
 * A page of `GET /voices`. API versions up to 2025-04-16 document `has_more` ("Whether there are
 * more Voices to fetch (using `starting_after=id` ...)"); the official SDKs for the current
 * versions read `data` only and ask for `starting_after=<last id>` until a page comes back empty
 * (cartesia-js src/core/pagination.ts, `hasNextPage`; cartesia-python src/cartesia/pagination.py).
 */
interface VoicePage {
  readonly data?: unknown;
  readonly has_more?: unknown;
}

/** Cartesia's largest page. */
export const PAGE_SIZE = 100;
/** A bound on pages, so a listing that never ends cannot hold a request forever. */
const MAX_PAGES = 100;

const GENDERS: Readonly<Record<string, VoiceGender>> = { masculine: 'Male', feminine: 'Female' };

const LOCALE_TAG = /^[a-z]{2,3}-[A-Z]{2}$/;

/**
 * The voice's native locale (`en-GB`), which tells a British voice from an American one; else its
 * bare `language` (`en`), as older API versions and voices without locales give only that.
 */
function languageOf(voice: CartesiaVoice): string {
  const locales = Array.isArray(voice.locales) ? (voice.locales as { locale?: unknown; is_native?: unknown }[]) : [];
  const native = locales.find((entry) => entry !== null && typeof entry === 'object' && entry.is_native === true && typeof entry.locale === 'string' && LOCALE_TAG.test(entry.locale));
  if (native) return native.locale as string;
  return typeof voice.language === 'string' && voice.language.length > 0 ? voice.language : 'und';
}

function toVoiceInfo(voice: CartesiaVoice): VoiceInfo {
  if (typeof voice.id !== 'string' || voice.id.length === 0) throw badUpstreamResponse(PROVIDER, 'a voice without id');
  const description = typeof voice.description === 'string' ? voice.description.trim() : '';
  return {
    voiceId: voice.id,
    voiceName: typeof voice.name === 'string' && voice.name.length > 0 ? voice.name : voice.id,
    language: languageOf(voice),
    gender: (typeof voice.gender === 'string' && GENDERS[voice.gender]) || 'Unknown',
    description: description || 'Cartesia voice',
  };
}

/**
 * Every voice the key can use: follows the cursor until an empty page (the SDKs' rule) or an
 * explicit `has_more: false` (the older versions' word for the last page), so a version that
 * drops `has_more` still lists everything. A page that adds no voice not seen before ends the
 * listing too: a server that ignores the cursor and repeats a page would otherwise be asked again
 * and again until MAX_PAGES.
 */
export async function listCartesiaVoices(options: CartesiaOptions, fetchFunction: typeof fetch, signal?: AbortSignal): Promise<VoiceInfo[]> {
  const voices = new Map<string, VoiceInfo>();
  let startingAfter: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(startingAfter ? { starting_after: startingAfter } : {}) });
    const answer = await requestVoicePage<VoicePage>(options, fetchFunction, query, signal);
    if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.data)) throw badUpstreamResponse(PROVIDER, 'the voice page has no data list');
    const pageVoices = (answer.data as CartesiaVoice[]).map(toVoiceInfo);
    const knownBefore = voices.size;
    for (const voice of pageVoices) voices.set(voice.voiceId, voice);
    if (answer.has_more === false || voices.size === knownBefore) return [...voices.values()];
    startingAfter = pageVoices[pageVoices.length - 1].voiceId;
  }
  throw badUpstreamResponse(PROVIDER, `the voice list did not end after ${MAX_PAGES} pages`);
}
