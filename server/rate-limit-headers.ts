import type { Response } from 'express';
import type { AppliedLimit } from '../core';

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured-field lists):
 * `RateLimit-Policy: "account-minute";q=60;w=60, "account-day";q=200000;qu="characters";w=86400`
 * `RateLimit: "account-minute";r=59;t=60, "account-day";r=199990;t=3600`
 * A quota counted in characters says so with `qu`; requests are the draft's default unit.
 */
export function setRateLimitHeaders(response: Response, limits: readonly AppliedLimit[]): void {
  if (limits.length === 0) return;
  response.setHeader('RateLimit-Policy', limits.map(policyItem).join(', '));
  response.setHeader('RateLimit', limits.map((limit) => `"${limit.name}";r=${limit.remaining};t=${limit.resetSeconds}`).join(', '));
}

function policyItem(limit: AppliedLimit): string {
  const unit = limit.unit === 'requests' ? '' : `;qu="${limit.unit}"`;
  return `"${limit.name}";q=${limit.quota}${unit};w=${limit.windowSeconds}`;
}
