/**
 * Google reports two things in its error body that core reads from the status line and headers:
 * an invalid API key comes back as 400 `API_KEY_INVALID` (a credentials problem, so 401 here),
 * and a quota error may carry `google.rpc.RetryInfo.retryDelay` instead of Retry-After.
 * This wrapper restates both so core's uniform mapping applies.
 */
interface GoogleErrorDetail {
  readonly '@type'?: string;
  readonly reason?: string;
  readonly retryDelay?: string;
}

function readDetails(text: string): readonly GoogleErrorDetail[] {
  try {
    const parsed = JSON.parse(text) as { error?: { details?: unknown } };
    return Array.isArray(parsed.error?.details) ? (parsed.error.details as GoogleErrorDetail[]) : [];
  } catch {
    return [];
  }
}

function retryDelaySeconds(details: readonly GoogleErrorDetail[]): number | undefined {
  const delay = details.find((detail) => typeof detail.retryDelay === 'string')?.retryDelay;
  const seconds = delay ? Number.parseFloat(delay) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

export function googleErrorFetch(fetchImplementation: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImplementation(input, init);
    if (response.status !== 400 && response.status !== 429) return response;
    const text = await response.text();
    const details = readDetails(text);
    const headers = new Headers(response.headers);
    let status = response.status;
    if (status === 400 && details.some((detail) => detail.reason === 'API_KEY_INVALID')) status = 401;
    const delay = retryDelaySeconds(details);
    if (status === 429 && !headers.has('retry-after') && delay !== undefined) headers.set('retry-after', String(delay));
    return new Response(text, { status, statusText: response.statusText, headers });
  };
}
