import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { crossSiteProblem } from '../admin/same-origin';

/**
 * Browsers send Basic credentials with any request to our origin, a forged cross-site form post
 * included. Every console form therefore carries a token that only a page of ours can know: an HMAC
 * of the credentials it was served to, under the server's secret. Posts whose Origin header names
 * another site are refused too.
 */
export function csrfToken(secret: string, req: Request): string {
  return createHmac('sha256', secret).update(`console-form:${req.get('authorization') ?? ''}`).digest('base64url');
}

export function csrfProblem(secret: string, req: Request, given: unknown): string | null {
  // The same Origin rules as the admin API (a malformed Origin is refused, not a 500); the token below
  // is what lets a form from a "null" origin (privacy settings, some browsers' redirects) through.
  const crossSite = crossSiteProblem(req, { allowNullOrigin: true });
  if (crossSite) return crossSite.reason;
  if (typeof given !== 'string') return 'the form has no token: reload the page';
  const expected = Buffer.from(csrfToken(secret, req));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'the form token does not match: reload the page';
  return null;
}
