import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** HTTP Basic for the dashboard and the admin API; compared as digests so length leaks nothing. */
export function basicAuth(username: string, password: string): (req: Request, res: Response, next: NextFunction) => void {
  const expected = digest(`${username}:${password}`);
  return (req, res, next) => {
    const given = credentialsOf(req);
    if (given !== '' && timingSafeEqual(digest(given), expected)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="magnifinance-connector", charset="UTF-8"');
    res.status(401).json({ error: 'unauthorized' });
  };
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
