/** The HTTP calls a client makes on any replica. */

export interface Answer {
  readonly status: number;
  readonly body: { success: boolean; data?: Record<string, unknown> & { audio_url?: string; file_size?: number }; error?: { code: string } };
  readonly headers: Headers;
}

async function call(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Answer['body'], headers: response.headers };
}

const json = (apiKey?: string): Record<string, string> => ({ 'content-type': 'application/json', ...(apiKey && { 'x-api-key': apiKey }) });

export const register = (base: string, email: string) =>
  call(`${base}/api/v1/auth/register`, { method: 'POST', headers: json(), body: JSON.stringify({ email, password: 'correct horse battery' }) });

export const createKey = (base: string, apiKey: string, name: string) =>
  call(`${base}/api/v1/auth/keys`, { method: 'POST', headers: json(apiKey), body: JSON.stringify({ name }) });

export const revokeKey = (base: string, apiKey: string, keyId: string) => call(`${base}/api/v1/auth/keys/${keyId}`, { method: 'DELETE', headers: json(apiKey) });

export const listKeys = (base: string, apiKey: string) => call(`${base}/api/v1/auth/keys`, { method: 'GET', headers: json(apiKey) });

export const synthesize = (base: string, apiKey: string, text: string, voice: { model: string; voice: string } = { model: 'espeak-ng', voice: 'en-us' }) =>
  call(`${base}/api/v1/common/tts-sync`, { method: 'POST', headers: json(apiKey), body: JSON.stringify({ ...voice, text, format: 'wav' }) });

export const usage = (base: string, apiKey: string) => call(`${base}/api/v1/usage`, { method: 'GET', headers: json(apiKey) });

/** Downloads an audio link from the given replica (the link's own host may be another one). */
export async function download(base: string, audioUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${base}${new URL(audioUrl).pathname}`, { headers });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}
