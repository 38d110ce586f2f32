import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { WooHttpError, WooRest } from '../../platforms/woocommerce/woo-rest';
import { signWooBody, startFakeWooCommerce, type RunningFakeWoo } from './fake-woocommerce';

/**
 * The fake's lean dispatch (orders/<id> and its notes answered from node:http before Express)
 * answers every request of those routes as its Express routes do: the same status, headers and
 * body, the same echo deliveries, the same request log; bodies it does not read go to Express.
 */

const NOW = new Date('2026-11-20T10:00:00Z');
const SECRET = 'echo-secret';

interface Seen {
  status: number;
  headers: string[];
  contentType: unknown;
  body: unknown;
}

async function receiver(): Promise<{ url: string; bodies: string[]; close(): Promise<void> }> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(req.headers['x-wc-webhook-signature'] === signWooBody(body, SECRET) ? body : 'bad signature');
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** What a client sees of an answer; the shop's own origin written as ORIGIN. */
function seen(shop: RunningFakeWoo, status: number, headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>, text: string): Seen {
  const names = Object.keys(headers).filter((name) => name !== 'content-length').sort();
  const body = text.split(shop.origin).join('ORIGIN').split(shop.origin.replace(/\//g, '\\/')).join('ORIGIN');
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // HTML (body-parser's refusal): compared by its first line.
    parsed = body.split('<br>')[0];
  }
  return { status, headers: names, contentType: headers['content-type'], body: parsed };
}

async function script(lean: boolean): Promise<{ answers: Seen[]; deliveries: unknown[]; log: unknown[] }> {
  const hook = await receiver();
  const shop = await startFakeWooCommerce({ lean, now: () => NOW, serverNow: () => new Date(), consumerKey: 'ck_lean', consumerSecret: 'cs_lean' });
  try {
    shop.addWebhook({ topic: 'order.updated', status: 'active', delivery_url: hook.url, secret: SECRET });
    shop.putOrder({ id: 41, status: 'processing', total: '12.30', date_created_gmt: '2026-11-19T09:00:00', meta_data: [{ id: 7, key: '_billing_nif', value: '232013969' }], line_items: [{ id: 1, name: 'Caneca — edição/1', quantity: 1, total: '10.00' }] });
    const reader = shop.addKey('read');
    const rest = new WooRest({ url: shop.origin, consumerKey: shop.consumerKey, consumerSecret: shop.consumerSecret, timeoutMs: 5_000 });
    const readOnly = new WooRest({ url: shop.origin, consumerKey: reader.consumerKey, consumerSecret: reader.consumerSecret, timeoutMs: 5_000 });
    const answers: Seen[] = [];
    const call = async (client: WooRest, method: 'GET' | 'PUT' | 'POST', endpoint: string, params: Record<string, string> = {}, body?: unknown): Promise<void> => {
      try {
        const answer = await client.send(method, endpoint, params, body);
        answers.push(seen(shop, answer.status, answer.headers, JSON.stringify(answer.data)));
      } catch (error) {
        if (!(error instanceof WooHttpError)) throw error;
        answers.push(seen(shop, error.status, error.headers, typeof error.data === 'string' ? error.data : JSON.stringify(error.data)));
      }
    };
    const raw = async (method: 'GET' | 'PUT' | 'POST', path: string, headers: Record<string, string>, body?: string | Buffer): Promise<void> => {
      const answer = await request(`${shop.origin}/wp-json/wc/v3/${path}`, { method, headers, body });
      answers.push(seen(shop, answer.statusCode, answer.headers, await answer.body.text()));
    };
    await call(rest, 'GET', 'orders/41');
    await call(rest, 'GET', 'orders/404');
    await call(rest, 'PUT', 'orders/41', {}, { meta_data: [{ key: '_magnifinance_claim', value: 'c-1' }, { key: '_billing_nif', value: '123456789' }] });
    await call(rest, 'POST', 'orders/41', {}, { meta_data: [{ key: '_magnifinance_document_number', value: 'FR A/1' }] });
    await call(rest, 'PUT', 'orders/41', {}, { status: 'no-such-status' });
    await call(rest, 'PUT', 'orders/404', {}, { meta_data: [] });
    await call(rest, 'PUT', 'orders/41', {}, { status: 'completed' });
    // `_fields`: the answer holds only the fields asked for; the echo still carries the whole order.
    await call(rest, 'PUT', 'orders/41', { _fields: 'id' }, { meta_data: [{ key: '_magnifinance_claim', value: 'c-2' }] });
    await call(rest, 'POST', 'orders/41/notes', {}, { note: 'MagniFinance: FR A/1', customer_note: false });
    await call(rest, 'POST', 'orders/41/notes', {}, { customer_note: true });
    await call(rest, 'POST', 'orders/404/notes', {}, { note: 'x' });
    await call(rest, 'GET', 'orders/41/notes', { type: 'any' });
    await call(rest, 'GET', 'orders/41/notes', { type: 'customer' });
    await call(rest, 'GET', 'orders/41/notes');
    await call(rest, 'GET', 'orders/404/notes');
    await call(readOnly, 'GET', 'orders/41');
    await call(readOnly, 'PUT', 'orders/41', {}, { meta_data: [] });
    await call(readOnly, 'POST', 'orders/41/notes', {}, { note: 'x' });
    // No credentials, and a forged signature.
    await raw('GET', 'orders/41', {});
    await raw('GET', `orders/41?oauth_consumer_key=${shop.consumerKey}&oauth_timestamp=${Math.floor(Date.now() / 1000)}&oauth_nonce=n1&oauth_signature_method=HMAC-SHA256&oauth_signature=forged`, {});
    // Bodies body-parser reads before the auth: refused (bad JSON, a bare value), stripped of a BOM, an empty one.
    await raw('PUT', 'orders/41', { 'content-type': 'application/json' }, '{"meta_data": [');
    await raw('PUT', 'orders/41', { 'content-type': 'application/json' }, '"text"');
    await raw('PUT', 'orders/41', { 'content-type': 'application/json; charset=utf-8' }, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"status":"completed"}')]));
    await raw('POST', 'orders/41/notes', { 'content-type': 'application/json' }, '');
    await raw('PUT', 'orders/41', { 'content-type': 'text/plain' }, '{}');
    await raw('GET', 'orders/41', { 'content-type': 'application/json' }, '{"bad');
    // A route that throws (an amount that is no number): Express's error handler answers.
    await call(rest, 'PUT', 'orders/41', {}, { line_items: [{ product_id: 5, quantity: 1, total: 'not money' }] });
    await shop.settle();
    const log = shop.requests.map(({ method, path, status }) => ({ method, path, status }));
    return { answers, deliveries: hook.bodies.map((body) => seen(shop, 200, {}, body).body), log };
  } finally {
    await shop.close();
    await hook.close();
  }
}

describe('the fake WooCommerce: the lean dispatch answers as its Express routes', () => {
  it('orders/<id> and orders/<id>/notes: statuses, headers, bodies, echoes and the request log alike; no ETag', async () => {
    const express = await script(false);
    const lean = await script(true);
    expect(lean.answers).toEqual(express.answers);
    expect(lean.deliveries).toEqual(express.deliveries);
    expect(lean.log).toEqual(express.log);
    // The script reached what it means to compare: answers, refusals, body-parser's own refusals, echoes.
    expect(express.answers.map((a) => a.status)).toEqual([200, 404, 200, 200, 400, 400, 200, 200, 201, 400, 404, 200, 200, 200, 404, 200, 401, 401, 401, 401, 400, 400, 401, 401, 401, 400, 500]);
    expect(express.answers[7]?.body).toEqual({ id: 41, _links: expect.objectContaining({ self: expect.any(Array) }) });
    expect(express.deliveries).toHaveLength(4);
    expect(JSON.stringify(express.deliveries[3])).toContain('c-2');
    expect(JSON.stringify(express.deliveries[3])).toContain('line_items');
    expect(express.deliveries).not.toContain('bad signature');
    expect(express.answers.every((a) => !a.headers.includes('etag'))).toBe(true);
  });
});
