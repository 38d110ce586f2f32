import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { ConnectorMetrics } from '../core/metrics';
import { requestClient, type ClientLimiter } from '../core/client-limiter';
import { loginLimiter } from './login-limiter';

/**
 * HTTP Basic for the dashboard and the admin API; compared as digests so length leaks nothing.
 * Wrong guesses are limited per client (login-limiter.ts): a client past its allowance waits, and
 * meanwhile gets 429 with Retry-After without its guess being looked at.
 */
export function basicAuth(
  /** The admin user and password as they are now: read on every request, so a reload of the tenants file applies a new password at once. */
  owner: () => { username: string; password: string },
  guard: { limiter: ClientLimiter; metrics?: ConnectorMetrics } = { limiter: loginLimiter() },
  /** Other users let in (the accountant, whose role roles.ts enforces). */
  others: readonly { username: string; password: string }[] = [],
): (req: Request, res: Response, next: NextFunction) => void {
  const fixed = others.map((user) => digest(`${user.username}:${user.password}`));
  let current: { key: string; digest: ReturnType<typeof digest> } | undefined;
  const ownerDigest = (): ReturnType<typeof digest> => {
    const { username, password } = owner();
    const key = `${username}:${password}`;
    if (key !== current?.key) current = { key, digest: digest(key) };
    return current.digest;
  };
  return (req, res, next) => {
    const expected = [ownerDigest(), ...fixed];
    const client = requestClient(req);
    const given = credentialsOf(req);
    // A request without credentials is a browser asking for them, not a guess.
    if (given === '') return void challenge(res);
    const wait = guard.limiter.waitFor(client);
    if (wait > 0) {
      guard.metrics?.adminLogins.inc({ outcome: 'blocked' });
      res.setHeader('Retry-After', String(Math.ceil(wait / 1_000)));
      return void res.status(429).json({ error: `too many wrong logins from this client: try again in ${Math.ceil(wait / 1_000)} s` });
    }
    const tried = digest(given);
    // Every user is compared, so which one matched (or none) takes the same time.
    if (expected.map((one) => timingSafeEqual(tried, one)).includes(true)) {
      guard.limiter.clear(client);
      return next();
    }
    guard.limiter.count(client);
    guard.metrics?.adminLogins.inc({ outcome: 'wrong' });
    challenge(res);
  };
}

function challenge(res: Response): void {
  res.setHeader('WWW-Authenticate', 'Basic realm="magnifinance-connector", charset="UTF-8"');
  res.status(401).json({ error: 'unauthorized' });
}

/** The user name of a request basicAuth let through (who did an action, for the order's note). */
export function adminUser(req: Request): string {
  return credentialsOf(req).split(':')[0] || 'admin';
}

function credentialsOf(req: Request): string {
  const header = req.get('authorization') ?? '';
  return header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
