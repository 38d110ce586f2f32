import { Redis } from 'ioredis';
import { Ledger } from '../../connector/core/ledger';
import { checkRegimeLimit } from '../../connector/doctor/regime-check';
import { shopToday } from '../../connector/pipeline/issue-date';
import { parseMappingSettings } from '../../law/mapping-settings';
import { eventually, portugueseOrder, startHarness } from './support/harness';
import { startSmtpReceiver } from '../support/smtp-receiver';

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

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

describe('CIVA art. 53, DL 35/2025: the EUR 18,750 exit told before it bites (console, alert), at exemptions.regimeWarnFrom (default EUR 16,875, 90 %)', () => {
  it('below the threshold nothing; the M10 invoice that reaches it -> the console\'s warning line and one alert e-mail (pt), with the year in the shop\'s zone and amounts in euros; not told again', async () => {
    const smtp = await startSmtpReceiver({ user: 'alerts@loja.pt', password: 'smtp-pw' });
    const h = await startHarness({
      settings: { language: 'pt', mapping: { exemptions: { regime: 'M10' } } },
      tenant: { alerts: { digestSeconds: 1, email: { smtp: { host: '127.0.0.1', port: smtp.port, user: 'alerts@loja.pt', password: { env: 'SMTP_PW' } }, from: 'conector@loja.pt', to: ['dono@loja.pt'] } } },
      env: { SMTP_PW: 'smtp-pw' },
    });
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const ledger = new Ledger(redis, h.prefix);
      const year = Number(shopToday(Date.now(), 'Europe/Lisbon').slice(0, 4));
      const consolePage = async () => (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: ADMIN })).text();
      // The year's earlier M10 invoices: EUR 16,800.00, below EUR 16,875.00.
      await ledger.countRegimeDocument({ tenant: 'shop1', orderId: 1, purpose: 'invoice' }, year, 1_680_000n);
      expect(await consolePage()).not.toContain('id="regime-limit"');

      const reaching = untaxedOrder('100.00');
      expect((await h.deliver(reaching)).status).toBe(202);
      await eventually('the M10 invoice written back', async () => (await h.connector?.ledger.forOrder('shop1', Number(reaching.id)))?.invoice?.state === 'written-back', 30_000);
      expect(await ledger.regimeTurnover('shop1', year)).toBe('16900.00');

      const page = await consolePage();
      const line = /<p id="regime-limit" class="warn" data-state="near">([^<]*)<\/p>/.exec(page)?.[1] ?? '';
      expect(line).toContain(`As faturas M10 de ${year} emitidas pelo conector somam 16 900,00 €`);
      expect(line).toContain('limite de 18 750,00 €');
      expect(line).toContain('aviso a partir de 16 875,00 €');
      expect(line).toContain('exemptions.regimeUntil');

      const mail = await eventually('the regime alert e-mail', () => smtp.mails.find((m) => m.subject.includes('art. 53')), 15_000);
      expect(mail.to).toEqual(['dono@loja.pt']);
      expect(mail.subject).toContain('o limite do regime do art. 53.º está perto');
      expect(mail.text).toContain(`• As faturas M10 de ${year} emitidas pelo conector somam 16 900,00 €`);
      expect(mail.text).toContain('O que fazer: Prepare a mudança com o seu contabilista');

      // Told once: an order needing a person later is told without the regime again.
      await ledger.record({ tenant: 'shop1', orderId: 7101, purpose: 'invoice' }, { state: 'alert-no-number', detail: 'no number', externalId: 'wc-7101', alertAt: Date.now() });
      await ledger.markAttention({ tenant: 'shop1', orderId: 7101, purpose: 'invoice' });
      const next = await eventually('the next digest', () => smtp.mails.find((m) => m.text.includes('#7101')), 15_000);
      expect(next.subject).not.toContain('art. 53');
      expect(smtp.mails.filter((m) => m.subject.includes('art. 53'))).toHaveLength(1);
    } finally {
      await redis.quit();
      await h.close();
      await smtp.close();
    }
  });
});
