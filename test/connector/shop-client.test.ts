import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import { ShopRequestError } from '../../connector/shop/shop';

/** A bare HTTP server standing in for a shop that misbehaves at the transport level. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function shopAt(origin: string, timeoutMs = 5_000): WooShop {
  return new WooShop({ url: origin, consumerKey: 'ck_x', consumerSecret: 'cs_x', webhookSecret: 'x', timeoutMs });
}

async function failure(call: Promise<unknown>): Promise<ShopRequestError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ShopRequestError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

describe('the WooCommerce REST client at the transport level (platforms/woocommerce/woo-rest.ts)', () => {
  it('a shop that never answers: no answer after timeoutMs, told as a timeout (status 0, ECONNABORTED)', async () => {
    const silent = await serve(() => undefined);
    try {
      const error = await failure(shopAt(silent.origin, 300).getOrder(1));
      expect([error.status, error.code]).toEqual([0, 'ECONNABORTED']);
      expect(error.message).toBe('shop unreachable: timeout of 300ms exceeded');
    } finally {
      await silent.close();
    }
  });

  it('a shop that trickles its answer (each byte within the body timeout): cut at timeoutMs for the whole call, told as a timeout', async () => {
    const timers: NodeJS.Timeout[] = [];
    const trickling = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":1,"padding":"');
      // 40 bytes, one every 50 ms: no gap reaches the 300 ms body timeout, the whole answer takes 2 s.
      for (let i = 1; i <= 40; i++) timers.push(setTimeout(() => (i === 40 ? res.end('"}') : res.write('x')), i * 50));
    });
    try {
      const error = await failure(shopAt(trickling.origin, 300).getOrder(1));
      expect([error.status, error.code]).toEqual([0, 'ECONNABORTED']);
      expect(error.message).toBe('shop unreachable: timeout of 300ms exceeded');
    } finally {
      timers.forEach(clearTimeout);
      await trickling.close();
    }
  });

  it('a shop nobody listens at: status 0, ECONNREFUSED', async () => {
    const closed = await serve(() => undefined);
    await closed.close();
    const error = await failure(shopAt(closed.origin).getOrder(1));
    expect([error.status, error.code]).toEqual([0, 'ECONNREFUSED']);
  });

  it('a redirect (to a login page) is not followed: the 302 is the answer, an error', async () => {
    const paths: string[] = [];
    const redirecting = await serve((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(302, { location: '/wp-login.php' }).end();
    });
    try {
      const error = await failure(shopAt(redirecting.origin).getOrder(7));
      expect([error.status, error.code]).toEqual([302, 'http_error']);
      expect(paths).toHaveLength(1);
    } finally {
      await redirecting.close();
    }
  });

  it('an error answer that is not JSON keeps its status, coded http_error', async () => {
    const failing = await serve((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html>Service Unavailable</html>');
    });
    try {
      const error = await failure(shopAt(failing.origin).getOrder(7));
      expect([error.status, error.code, error.message]).toEqual([503, 'http_error', 'shop answered 503 http_error: Request failed with status code 503']);
    } finally {
      await failing.close();
    }
  });

  it('a 429 with WooCommerce\'s JSON keeps its code and is not permanent (retried)', async () => {
    const limiting = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ code: 'rest_too_many_requests', message: 'Too many requests.', data: { status: 429 } }));
    });
    try {
      const error = await failure(shopAt(limiting.origin).getOrder(7));
      expect([error.status, error.code, error.permanent]).toEqual([429, 'rest_too_many_requests', false]);
    } finally {
      await limiting.close();
    }
  });

  it('a shop in a subdirectory (WordPress at /loja/): every call goes under it, OAuth-signed over that URL as WooCommerce checks it', async () => {
    const seen: { method: string; url: string }[] = [];
    const shop = await serve((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '' });
      res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.includes('/notes') ? '[]' : '{"id":7}');
    });
    try {
      const client = shopAt(`${shop.origin}/loja/`);
      await client.getOrder(7);
      await client.listNotes(7, 'internal');
      await client.updateOrderMeta(7, [{ key: '_magnifinance_document_number', value: 'FR A/1' }]);
      expect(seen.map(({ method, url }) => `${method} ${url.split('?')[0]}`)).toEqual(['GET /loja/wp-json/wc/v3/orders/7', 'GET /loja/wp-json/wc/v3/orders/7/notes', 'PUT /loja/wp-json/wc/v3/orders/7']);
      for (const { method, url } of seen) {
        // WC_REST_Authentication::check_oauth_signature: the decoded parameters sorted by name, each
        // name and value rawurlencoded, over the request's URL without its query.
        const query = new URL(url, shop.origin).searchParams;
        const params = [...query].filter(([name]) => name !== 'oauth_signature').sort(([a], [b]) => (a < b ? -1 : 1));
        const pairs = params.map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`).join('&');
        const base = `${method}&${rfc3986(`${shop.origin}${url.split('?')[0]}`)}&${rfc3986(pairs)}`;
        expect(query.get('oauth_signature')).toBe(createHmac('sha256', 'cs_x&').update(base).digest('base64'));
      }
      expect(new URL(seen[1].url, shop.origin).searchParams.get('type')).toBe('internal');
      // The meta PUT asks for the order's id only: WordPress would answer with the whole order.
      expect(new URL(seen[2].url, shop.origin).searchParams.get('_fields')).toBe('id');
    } finally {
      await shop.close();
    }
  });
});

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
