import { createHmac, timingSafeEqual } from 'node:crypto';

export type WooSignatureResult = { valid: true } | { valid: false; reason: 'missing-signature' | 'bad-signature' };

/**
 * Checks `X-WC-Webhook-Signature`: base64(HMAC-SHA256(secret, body)) over the exact bytes WooCommerce
 * sent. Re-serialised JSON does not match (wp_json_encode escapes "/" and non-ASCII), so the caller
 * must pass the raw body. The comparison runs in constant time over equal-length digests so the
 * response time does not leak how much of a forged signature was right.
 */
export function verifyWooSignature(
  rawBody: Buffer | string,
  signatureHeader: string | undefined,
  secret: string,
): WooSignatureResult {
  const received = signatureHeader?.trim();
  if (!received) return { valid: false, reason: 'missing-signature' };
  const expected = createHmac('sha256', secret)
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest();
  // Decoding (instead of comparing base64 text) gives two 32-byte buffers whatever the header holds.
  const given = Buffer.from(received, 'base64');
  const sameLength = given.length === expected.length;
  const matches = timingSafeEqual(sameLength ? given : expected, expected) && sameLength;
  // Buffer.from(..., 'base64') ignores junk characters; insist the header is the canonical encoding.
  if (!matches || given.toString('base64') !== received) return { valid: false, reason: 'bad-signature' };
  return { valid: true };
}
