import { META } from '../../connector/shop/order-meta';
import { WooShop } from '../../platforms/woocommerce/woo-shop';
import { sendWooWebhook, startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { eventually, portugueseOrder, startHarness, WEBHOOK_SECRET, type Harness } from './support/harness';

/**
 * Issue 29.3: the shop's products are cached per process (10 minutes) and forgotten as soon as
 * WooCommerce says one changed: product.updated (a product's or a variation's), product.deleted
 * (`{"id": N}` only). The delivery reaches the `serve` process; the workers, which read the products,
 * are told through Redis.
 */
describe("the shop's cached products follow WooCommerce's product webhooks", () => {
  describe('WooShop.forgetProducts', () => {
    let woo: RunningFakeWoo;
    beforeAll(async () => {
      woo = await startFakeWooCommerce();
    });
    afterAll(async () => woo.close());

    it('re-reads only what it was told changed: a product, a variation (its parent stays cached)', async () => {
      const shop = new WooShop({ url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, webhookSecret: 'x', timeoutMs: 3_000 });
      woo.putProduct({ id: 701, name: 'Caneca', virtual: false });
      woo.putProduct({ id: 702, name: 'Workshop', type: 'variable', virtual: false });
      woo.putVariation(702, { id: 703, virtual: false });
      const items = [
        { product_id: 701, variation_id: 0 },
        { product_id: 702, variation_id: 703 },
      ];
      const reads = () => woo.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/products')).map((r) => r.path);
      await shop.productFacts(items, 1_000);
      expect(reads()).toEqual(['/products', '/products/702/variations']);

      woo.putProduct({ id: 701, name: 'Caneca', virtual: true });
      woo.putVariation(702, { id: 703, virtual: true });
      expect((await shop.productFacts(items, 2_000)).get(701)?.virtual).toBe(false);
      shop.forgetProducts([701, 703]);
      const facts = await shop.productFacts(items, 3_000);
      expect(facts.get(701)?.virtual).toBe(true);
      expect(facts.get(703)?.virtual).toBe(true);
      expect(reads()).toEqual(['/products', '/products/702/variations', '/products', '/products/702/variations']);
    });
  });

  describe("separate serve and work processes: the delivery reaches serve, the worker's cache forgets", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ role: 'none', settings: { documentType: 'S' } });
      await h.startConnector('serve');
      await h.startConnector('work');
      for (const topic of ['product.updated', 'product.deleted']) h.woo.addWebhook({ topic, status: 'active', delivery_url: h.webhookUrl, secret: WEBHOOK_SECRET });
      h.woo.putProduct({ id: 11, name: 'Caneca de cerâmica', virtual: false });
      h.woo.putProduct({ id: 12, name: 'Livro', virtual: false });
    });
    afterAll(async () => h.close());

    /** The type of the mug's line on the order's invoice: S (service) or P (goods). */
    async function mugLineType(): Promise<string | undefined> {
      const order = portugueseOrder();
      const id = Number(order.id);
      expect((await h.deliver(order)).status).toBe(202);
      await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
      const [doc] = await h.documentsOf(id);
      return (doc.document as unknown as { Lines: { Code: string; Type: string }[] }).Lines.find((l) => l.Code === 'CAN-01')?.Type;
    }
    const productReads = () => h.woo.requests.filter((r) => r.method === 'GET' && r.path === '/products').length;

    it('product.updated: the mug made virtual is a service on the next invoice, read again once; product.deleted: unknown again, goods', async () => {
      expect(await mugLineType()).toBe('P');
      expect(productReads()).toBe(1);

      // Cached: a change the shop does not tell is not seen (10 minutes).
      const hooks = h.woo.webhooks().filter((hook) => hook.topic.startsWith('product.'));
      for (const hook of hooks) hook.status = 'paused';
      h.woo.putProduct({ id: 11, name: 'Caneca de cerâmica', virtual: true });
      expect(await mugLineType()).toBe('P');
      expect(productReads()).toBe(1);

      // Told: the next order reads the product again and the mug is a service.
      for (const hook of hooks) hook.status = 'active';
      h.woo.putProduct({ id: 11, name: 'Caneca de cerâmica', virtual: true });
      await h.woo.settle();
      expect(hooks.map((hook) => hook.failure_count)).toEqual([0, 0]);
      expect(await mugLineType()).toBe('S');
      expect(productReads()).toBe(2);

      // Moved to the trash: the shop lists it no more, so nothing says it is a service.
      h.woo.trashProduct(11);
      await h.woo.settle();
      expect(await mugLineType()).toBe('P');
      expect(productReads()).toBe(3);
    });

    it('answers a product delivery 200 with the ids it forgot; a payload without an id is refused 400 (invalid-payload), a forged one 401', async () => {
      const deleted = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'product.deleted', payload: { id: 12 } });
      expect(deleted).toEqual({ status: 200, body: JSON.stringify({ forgotten: [12] }) });
      const variation = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'product.updated', payload: { id: 703, type: 'variation', parent_id: 702, virtual: true } });
      expect(variation).toEqual({ status: 200, body: JSON.stringify({ forgotten: [703] }) });
      const noId = await sendWooWebhook({ url: h.webhookUrl, secret: WEBHOOK_SECRET, topic: 'product.updated', payload: { name: 'Caneca' } });
      expect(noId.status).toBe(400);
      expect(JSON.parse(noId.body)).toMatchObject({ error: 'invalid-payload' });
      const forged = await sendWooWebhook({ url: h.webhookUrl, secret: 'not-the-secret', topic: 'product.updated', payload: { id: 11 } });
      expect(forged.status).toBe(401);
    });
  });
});
