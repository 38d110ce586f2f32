import type { NextFunction, Request, Response } from 'express';

/**
 * Browsers attach remembered Basic credentials to every request to our origin, a forged cross-site
 * one included. The admin API and Bull Board take no form token, so a change (any method but GET,
 * HEAD, OPTIONS) must come from our own pages or from outside a browser:
 * - an Origin header naming another site (or "null": a sandboxed frame, a file) is refused (403),
 *   a malformed one too (400);
 * - Sec-Fetch-Site, when the browser sends it, must say same-origin or none;
 * - the body may be JSON or nothing, never a form type (urlencoded, multipart, text/plain): those
 *   are what a cross-site form can send without asking, a JSON body needs a CORS preflight we never
 *   grant (415).
 * curl, scripts and n8n send no Origin and no Sec-Fetch-Site and keep working as before.
 */
export function sameOriginWrites(): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const problem = crossSiteProblem(req, { allowNullOrigin: false });
    if (problem) return void res.status(problem.status).json({ error: problem.reason });
    const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== '' && type !== 'application/json') return void res.status(415).json({ error: `send JSON (Content-Type: application/json) or no body; ${type} is what a cross-site form sends, so it is not accepted here` });
    next();
  };
}

/** The host an Origin header names, null when there is none, or 'malformed'. */
export function originHost(origin: string | undefined): string | null | 'malformed' {
  if (origin === undefined || origin === '') return null;
  if (origin === 'null') return 'null';
  try {
    return new URL(origin).host || 'malformed';
  } catch {
    return 'malformed';
  }
}

/**
 * Why a state-changing request looks cross-site, with the status to answer, or null. Shared by the
 * console (which also checks its form token, so it may allow a "null" Origin) and the admin API.
 */
export function crossSiteProblem(req: Request, options: { allowNullOrigin: boolean }): { status: number; reason: string } | null {
  const raw = req.get('origin');
  const host = originHost(raw);
  if (host === 'malformed') return { status: 400, reason: 'the Origin header is not a valid origin' };
  if (host === 'null' && !options.allowNullOrigin) return { status: 403, reason: 'a request from an opaque origin ("null") is not accepted' };
  if (host !== null && host !== 'null' && host !== req.get('host')) return { status: 403, reason: `a request from ${raw ?? ''} is not accepted: use the console or the API from outside a browser` };
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, reason: `a ${site} request is not accepted` };
  return null;
}
