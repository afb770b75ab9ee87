import { sign } from 'aws4';

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

export interface RequestToSign {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Signs a request with AWS Signature Version 4 (the `aws4` package) and returns the headers to
 * send: the caller's, plus X-Amz-Date, Authorization and X-Amz-Security-Token when a session
 * token is set. Host and Content-Length are signed but left to fetch, which sets the same values.
 */
export function signedHeaders(request: RequestToSign, credentials: AwsCredentials, region: string, service: string): Record<string, string> {
  const url = new URL(request.url);
  const signed = sign(
    { method: request.method, host: url.host, path: `${url.pathname}${url.search}`, headers: { ...request.headers }, body: request.body, service, region },
    { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers ?? {})) {
    if (value === undefined || ['host', 'content-length'].includes(name.toLowerCase())) continue;
    headers[name.toLowerCase()] = String(value);
  }
  return headers;
}
