import { Redis } from 'ioredis';
import { Ledger } from '../../connector/core/ledger';
import { checkRegimeLimit } from '../../connector/doctor/regime-check';
import { shopToday } from '../../connector/pipeline/issue-date';
import { parseMappingSettings } from '../../law/mapping-settings';
import { eventually, portugueseOrder, startHarness } from './support/harness';

/**
 * Issue 26.9, CIVA art. 53 as amended by DL 35/2025: the connector counts every M10 document it
 * issues in its year's turnover (the ledger), hands the count to the law, which warns near EUR 18,750
 * and holds the invoice that would cross it; the doctor says how far the year is from the limit.
 */

const untaxedOrder = (price: string) =>
  portugueseOrder({ items: [{ name: 'Cesto de vime', sku: 'CV-1', productId: 31, price, quantity: 1, rate: '0' }], shipping: [] });

describe('CIVA art. 53, DL 35/2025: the year\'s M10 documents, counted from the ledger', () => {
  it('counts each issued M10 invoice, holds the one that would pass EUR 18,750, and the doctor warns', async () => {
    const h = await startHarness({ settings: { mapping: { exemptions: { regime: 'M10', regimeWarnFrom: '18000' } } } });
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const ledger = new Ledger(redis, h.prefix);
      const zone = h.config.tenants[0].settings.mapping.shopTimeZone ?? 'Europe/Lisbon';
      const year = Number(shopToday(Date.now(), zone).slice(0, 4));
      const first = untaxedOrder('40.00');
      expect((await h.deliver(first)).status).toBe(202);
      await eventually('the first M10 invoice written back', async () => (await h.connector?.ledger.forOrder('shop1', Number(first.id)))?.invoice?.state === 'written-back', 30_000);
      const [doc] = await h.documentsOf(Number(first.id));
      expect(doc.document.TaxExemptionReasonCode).toBe('M10');
      expect(await ledger.regimeTurnover('shop1', year)).toBe('40.00');
      // Counted by order and purpose: a repeated record of the same document counts once.
      await ledger.countRegimeDocument({ tenant: 'shop1', orderId: Number(first.id), purpose: 'invoice' }, year, 4_000n);
      expect(await ledger.regimeTurnover('shop1', year)).toBe('40.00');

      // Earlier M10 documents of the year (as if issued before) bring it to EUR 18,700.00.
      await ledger.countRegimeDocument({ tenant: 'shop1', orderId: 1, purpose: 'invoice' }, year, 1_866_000n);
      expect(await ledger.regimeTurnover('shop1', year)).toBe('18700.00');
      const doctor = await checkRegimeLimit(redis, h.prefix, 'shop1', parseMappingSettings({ exemptions: { regime: 'M10' } }), Date.now());
      expect(doctor?.status).toBe('warn');
      expect(doctor?.detail).toContain('18,700.00');

      const crossing = untaxedOrder('60.00');
      expect((await h.deliver(crossing)).status).toBe(202);
      await eventually('the crossing invoice held', async () => (await h.connector?.ledger.forOrder('shop1', Number(crossing.id)))?.invoice?.state === 'held', 30_000);
      const held = (await h.connector?.ledger.forOrder('shop1', Number(crossing.id)))?.invoice;
      expect(held?.problem ?? held?.detail ?? '').toContain('regime-limit-crossed');
      expect(await h.documentsOf(Number(crossing.id))).toEqual([]);
      expect(await ledger.regimeTurnover('shop1', year)).toBe('18700.00');
    } finally {
      await redis.quit();
      await h.close();
    }
  });
});
