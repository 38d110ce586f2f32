import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Presigned-style PDF links, like the S3 links the service hands out: the query carries when the
 * link was issued, how long it lives and an HMAC over both and the path. A changed query or a link
 * past its lifetime is refused with 403, as S3 does.
 */

export interface LinkParts {
  documentId: number;
  issuedAtMs: number;
  ttlSeconds: number;
}

function sign(secret: string, path: string, issuedAtMs: number, ttlSeconds: number): string {
  return createHmac('sha256', secret).update(`${path}\n${issuedAtMs}\n${ttlSeconds}`).digest('hex');
}

export function pdfPath(documentId: number): string {
  return `/_files/documents/${documentId}.pdf`;
}

export function signedPdfUrl(origin: string, secret: string, parts: LinkParts): string {
  const path = pdfPath(parts.documentId);
  const signature = sign(secret, path, parts.issuedAtMs, parts.ttlSeconds);
  const query = new URLSearchParams({
    'X-Amz-Date': String(parts.issuedAtMs),
    'X-Amz-Expires': String(parts.ttlSeconds),
    'X-Amz-Signature': signature,
  });
  return `${origin}${path}?${query.toString()}`;
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'missing' | 'tampered' | 'expired' };

export function checkPdfLink(secret: string, path: string, query: URLSearchParams, nowMs: number): LinkCheck {
  const issued = query.get('X-Amz-Date');
  const ttl = query.get('X-Amz-Expires');
  const signature = query.get('X-Amz-Signature');
  if (!issued || !ttl || !signature || !/^\d+$/.test(issued) || !/^\d+$/.test(ttl)) return { ok: false, reason: 'missing' };
  const expected = Buffer.from(sign(secret, path, Number(issued), Number(ttl)), 'hex');
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'tampered' };
  if (nowMs > Number(issued) + Number(ttl) * 1000) return { ok: false, reason: 'expired' };
  return { ok: true };
}
