/**
 * Restates Polly's error conventions in the terms core maps uniformly. Polly (REST-JSON) names the
 * error in the `x-amzn-ErrorType` header (`ThrottlingException:http://...`) or a `__type` field,
 * and reports throttling as HTTP 400: that becomes 429, and the type is put into the body so the
 * client sees it as the provider's error code.
 */
const THROTTLING = ['ThrottlingException', 'TooManyRequestsException', 'ThrottledException'];

function errorType(header: string | null, body: Record<string, unknown>): string | undefined {
  const raw = header ?? (typeof body.__type === 'string' ? body.__type : undefined);
  // `Polly#ThrottlingException` or `ThrottlingException:http://internal.amazon.com/...`
  return raw?.split(':')[0].split('#').pop() || undefined;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function pollyErrorFetch(fetchImplementation: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImplementation(input, init);
    if (response.ok) return response;
    const text = await response.text();
    const body = parseObject(text);
    const type = errorType(response.headers.get('x-amzn-errortype'), body);
    const status = response.status === 400 && type && THROTTLING.includes(type) ? 429 : response.status;
    const normalised = type && Object.keys(body).length > 0 ? JSON.stringify({ ...body, __type: type }) : text;
    return new Response(normalised, { status, statusText: response.statusText, headers: response.headers });
  };
}
