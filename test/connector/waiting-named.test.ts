import { sendWooWebhook } from '../support/fake-woocommerce';
import { checkVies } from '../../connector/doctor/vies-check';
import { buildTenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';
import { startViesStandIn, type StandIn } from './support/vies-stand-in';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

async function page(h: Harness, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${h.connector?.origin}${path}${path.includes('?') ? '&' : '?'}lang=pt`, { headers: ADMIN });
  return { status: response.status, text: await response.text() };
}

/** The all-shops page's line of a shop. */
function shopLine(text: string, tenant: string): string {
  return new RegExp(`<tr data-tenant="${tenant}">[\\s\\S]*?</tr>`).exec(text)?.[0] ?? '';
}

describe('issue 31 (3): what waits on the outside world is named, at once', () => {
  describe('an EU business order waiting for VIES', () => {
    let vies: StandIn;
    let h: Harness;
    beforeAll(async () => {
      vies = await startViesStandIn();
      vies.down.add('DE');
      // Attempts far apart, as in production (backoff of minutes): the order waits in the delayed set.
      h = await startHarness({ tenant: { vies: { url: vies.url, timeoutMs: 2_000 } }, pipeline: { attempts: 8, backoffMs: 600_000 } });
    });
    afterAll(async () => {
      await h.close();
      await vies.close();
    });

    it('is listed on the shop page with its reason from the first failed attempt, not only counted; the all-shops page counts it to invoice', async () => {
      const order = portugueseOrder({
        billing: { first_name: 'Jonas', last_name: 'Weber', company: 'Weber Fotografie GmbH', address_1: 'Torstraße 5', city: 'Berlin', postcode: '10119', country: 'DE', email: 'jonas@weber.example', phone: '' },
        meta: [{ key: '_billing_vat', value: 'DE123456780' }],
        items: [{ name: 'Tripé', sku: 'TRI-01', productId: 33, price: '45.00', quantity: 2 }],
        shipping: [],
      });
      expect((await h.deliver(order)).status).toBe(202);
      const item = await eventually('the order listed with why', async () => new RegExp(`<li data-order="${String(order.id)}">[\\s\\S]*?</li>`).exec((await page(h, '/console/shop1')).text)?.[0]);
      expect(item).toContain('à espera do VIES (o registo europeu de números de IVA), que ainda não confirmou o número DE123456780 («MS_UNAVAILABLE»); o conector tenta de novo sozinho');
      const line = shopLine((await page(h, '/console')).text, 'shop1');
      expect(line).toMatch(/data-figure="to-invoice">1</);
    });

    it('the doctor checks that VIES answers: a warning naming what waits while it does not; OK when it answers', async () => {
      const runtime = buildTenantRuntime(h.config.tenants[0]);
      vies.down.add('PT');
      const down = await checkVies(runtime);
      expect(down).toMatchObject({ status: 'warn', name: 'VIES answers', detail: expect.stringContaining('«MS_UNAVAILABLE»') });
      expect(down?.pt?.fix).toContain('as faturas de empresas da UE esperam (vies.whenUnavailable: wait)');
      vies.down.delete('PT');
      expect(await checkVies(runtime)).toMatchObject({ status: 'ok', pt: { name: 'O VIES responde' } });
      expect(await checkVies(buildTenantRuntime({ ...h.config.tenants[0], vies: undefined }))).toBeUndefined();
    });
  });

  describe('a shop that does not answer, a wrong webhook secret', () => {
    let h: Harness;
    beforeAll(async () => {
      // Nothing listens on port 9 of this machine: the connection is refused, as for a shop whose server is down.
      h = await startHarness({ tenant: { shop: { url: 'http://127.0.0.1:9', consumerKey: 'ck', consumerSecret: 'cs', webhookSecret: 'wh-secret-àé/1', timeoutMs: 2_000 } }, sweep: { webhookCheckSeconds: 1 } });
    });
    afterAll(async () => h.close());

    it('a shop that does not answer at start is shown as such on the all-shops page and the shop page, with the cause; its webhooks are not shown healthy', async () => {
      const line = await eventually('the all-shops line says so', async () => {
        const found = shopLine((await page(h, '/console')).text, 'shop1');
        return found.includes('data-silent') ? found : undefined;
      });
      expect(line).toContain('A loja não responde desde');
      expect(line).toContain('a ligação à loja foi recusada: o servidor da loja está em baixo, ou o endereço ou a porta de shop.url estão errados');
      expect(line).not.toContain('✓');
      const shop = (await page(h, '/console/shop1')).text;
      expect(shop).toMatch(/<p id="shop-silent" class="warn">A loja não responde desde [^<]*: a ligação à loja foi recusada/);
    });

    it('a wrong webhook secret shows on the all-shops page at once (read live, as the shop page reads it)', async () => {
      const answer = await sendWooWebhook({ url: `${h.connector?.origin}/webhooks/woocommerce/shop1`, secret: 'not-the-secret', topic: 'order.created', payload: portugueseOrder(), source: 'http://127.0.0.1:9/' });
      expect(answer.status).toBe(401);
      // At once: the first page after the refusal counts it (no watch or sweep in between).
      const line = shopLine((await page(h, '/console')).text, 'shop1');
      expect(line).toContain('data-refused="1"');
      expect((await page(h, '/console/shop1')).text).toContain('data-reason="bad-signature"');
    });
  });

  describe('a slow shop', () => {
    let h: Harness;
    beforeAll(async () => {
      // Every answer of the shop takes 4 s: longer than a page waits for it (3 s), shorter than the connector's own timeout.
      h = await startHarness({ woo: { latencyMs: 4_000 } });
    });
    afterAll(async () => h.close());

    it('the order page says the shop did not answer in time, never that Redis does not answer', async () => {
      const { status, text } = await page(h, '/console/shop1/orders/4242');
      expect(status).not.toBe(503);
      expect(text).not.toContain('O Redis do conector não responde');
      // The page waits 3 s for the shop; the test's shop.timeoutMs is 3 s too: whichever ends first, the shop's slowness is named.
      expect(text).toMatch(/a loja não respondeu dentro de 3 s(, o que esta página espera por ela: a loja está lenta| \(shop\.timeoutMs\): o servidor da loja está lento ou parado)/);
    });
  });
});
