import { createHmac } from 'node:crypto';
import { verifyWooSignature } from '../../platforms/woocommerce/signature';

const secret = 'wc-webhook-secret-123';
// wp_json_encode escapes "/" and non-ASCII: the signature covers exactly these bytes.
const rawBody = '{"id":5001,"billing":{"city":"Lisb\\u00f3a"},"_links":{"self":[{"href":"https:\\/\\/loja.example.pt"}]}}';
const sign = (body: string | Buffer, key = secret) => createHmac('sha256', key).update(body).digest('base64');

describe('verifyWooSignature accepts the base64 HMAC-SHA256 of the raw body', () => {
  it.each([
    ['string body', rawBody, sign(rawBody)],
    ['Buffer body', Buffer.from(rawBody, 'utf8'), sign(rawBody)],
    ['header with surrounding spaces', rawBody, ` ${sign(rawBody)} `],
    ['binary body with non-UTF-8 bytes', Buffer.from([0xff, 0xfe, 0x00, 0x41]), sign(Buffer.from([0xff, 0xfe, 0x00, 0x41]))],
  ])('%s', (_name, body, header) => {
    expect(verifyWooSignature(body, header, secret)).toEqual({ valid: true });
  });
});

describe('verifyWooSignature rejects what WooCommerce did not sign', () => {
  const reserialised = JSON.stringify(JSON.parse(rawBody));
  it.each([
    ['no header', rawBody, undefined, 'missing-signature'],
    ['empty header', rawBody, '', 'missing-signature'],
    ['blank header', rawBody, '   ', 'missing-signature'],
    ['another secret', rawBody, sign(rawBody, 'other-secret'), 'bad-signature'],
    ['re-serialised JSON (escapes lost)', reserialised, sign(rawBody), 'bad-signature'],
    ['one byte changed', rawBody.replace('5001', '5002'), sign(rawBody), 'bad-signature'],
    ['hex digest instead of base64', rawBody, createHmac('sha256', secret).update(rawBody).digest('hex'), 'bad-signature'],
    ['truncated signature', rawBody, sign(rawBody).slice(0, 20), 'bad-signature'],
    ['signature with junk appended', rawBody, `${sign(rawBody)}!!`, 'bad-signature'],
    ['not base64 at all', rawBody, 'webhook_id=12', 'bad-signature'],
  ])('%s', (_name, body, header, reason) => {
    expect(verifyWooSignature(body, header, secret)).toEqual({ valid: false, reason });
  });
});
