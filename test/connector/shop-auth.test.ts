import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import { ShopRequestError } from '../../connector/shop/shop';
import { startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { portugueseOrder } from './support/harness';

function shopFor(woo: RunningFakeWoo, secret = woo.consumerSecret, tlsCaFile?: string): WooShop {
  return new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: secret, webhookSecret: 'x', timeoutMs: 5_000, ...(tlsCaFile ? { tlsCaFile } : {}) });
}

/** A raw request (no client library), answered as "<status> <code>". */
async function raw(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { headers });
  const body = (await response.json()) as { code?: string };
  return response.status === 200 ? 'ok' : `${response.status} ${body.code ?? ''}`;
}

/** "ok", or "<status> <code>" of the shop's refusal (raw requests already answer that way). */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    const value = await call;
    return typeof value === 'string' ? value : 'ok';
  } catch (error) {
    return error instanceof ShopRequestError ? `${error.status} ${error.code}` : String(error);
  }
}

describe('the shop client authenticates like @woocommerce/woocommerce-rest-api, and the fake shop checks it like WooCommerce', () => {
  describe('over http: OAuth 1.0a (HMAC-SHA256) in the query string', () => {
    let woo: RunningFakeWoo;
    const order = portugueseOrder();
    beforeAll(async () => {
      woo = await startFakeWooCommerce();
      woo.putOrder(order);
    });
    afterAll(async () => woo.close());

    it.each([
      ['the right keys', 'ok', () => shopFor(woo).getOrder(Number(order.id))],
      ['a query with characters to encode (listing with dates)', 'ok', () => shopFor(woo).listOrderPage({ status: 'processing', modified_after: '2024-01-01T00:00:00', dates_are_gmt: 'true' })],
      ['a wrong consumer secret', '401 woocommerce_rest_authentication_error', () => shopFor(woo, 'cs_wrong').getOrder(Number(order.id))],
      ['Basic auth over http (ignored by WooCommerce)', '401 woocommerce_rest_cannot_view', () => raw(`${woo.origin}/wp-json/wc/v3/orders/${String(order.id)}`, { authorization: `Basic ${Buffer.from(`${woo.consumerKey}:${woo.consumerSecret}`).toString('base64')}` })],
      ['no credentials', '401 woocommerce_rest_cannot_view', () => raw(`${woo.origin}/wp-json/wc/v3/orders`)],
    ])('%s -> %s', async (_name, expected, call) => {
      expect(await failureOf(call())).toBe(expected);
    });
  });

  describe('over https: Basic auth', () => {
    let woo: RunningFakeWoo;
    let dir: string;
    const order = portugueseOrder();
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mf-tls-'));
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      woo = await startFakeWooCommerce({ tls: { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') } });
      woo.putOrder(order);
    });
    afterAll(async () => {
      await woo.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it.each([
      ['the right keys (the test certificate trusted through shop.tlsCaFile)', 'ok', () => shopFor(woo, woo.consumerSecret, join(dir, 'cert.pem')).getOrder(Number(order.id))],
      ['a wrong consumer secret', '401 woocommerce_rest_authentication_error', () => shopFor(woo, 'cs_wrong', join(dir, 'cert.pem')).getOrder(Number(order.id))],
      ['a certificate nobody trusts', '0 DEPTH_ZERO_SELF_SIGNED_CERT', () => shopFor(woo).getOrder(Number(order.id))],
    ])('%s -> %s', async (_name, expected, call) => {
      expect(await failureOf(call())).toBe(expected);
    });

    it('writes meta by key and notes over https', async () => {
      const shop = shopFor(woo, woo.consumerSecret, join(dir, 'cert.pem'));
      await shop.updateOrderMeta(Number(order.id), [{ key: '_magnifinance_document_number', value: 'FR A/1' }]);
      await shop.updateOrderMeta(Number(order.id), [{ key: '_magnifinance_document_number', value: 'FR A/1' }]);
      expect((woo.order(Number(order.id))?.meta_data as { key: string }[]).filter((m) => m.key === '_magnifinance_document_number')).toHaveLength(1);
      await shop.addNote(Number(order.id), 'hello', false);
      expect(woo.notes(Number(order.id))).toHaveLength(1);
    });
  });
});
