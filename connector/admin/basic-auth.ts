import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** HTTP Basic for the dashboard and the admin API; compared as digests so length leaks nothing. */
export function basicAuth(username: string, password: string): (req: Request, res: Response, next: NextFunction) => void {
  const expected = digest(`${username}:${password}`);
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const given = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
    if (given !== '' && timingSafeEqual(digest(given), expected)) return next();
    res.setHeader('WWW-Authenticate', 'Basic realm="magnifinance-connector", charset="UTF-8"');
    res.status(401).json({ error: 'unauthorized' });
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
