import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { parseDecimal } from '../../client/money';
import type { MonthDocument, TaxPart } from '../../connector/month/month-document';
import { OssMonths, ossOfMonth, quarterOf } from '../../connector/month/oss';
import { REDIS_URL } from '../connector/support/harness';

/** OSS sales per buyer country: taxed sales to other member states only, credit notes negative; the quarter from the months kept in Redis. */
const part = (percent: string, base: string, tax: string, exemptionCode?: string): TaxPart => ({ region: 'PT', percent, base: parseDecimal(base), tax: parseDecimal(tax), exemptionCode });
const doc = (number: string, country: string, parts: TaxPart[], extra: Partial<MonthDocument> = {}): MonthDocument => ({
  number, type: 'FR', date: '2026-11-10', status: 'N', customerCountry: country, parts, net: parseDecimal('0'), tax: parseDecimal('0'), gross: parseDecimal('0'), currency: 'EUR', references: [], ...extra,
});

describe('OSS-relevant sales per country', () => {
  const documents = [
    doc('FR A/1', 'ES', [part('21', '100.00', '21.00')]),
    doc('FR A/2', 'ES', [part('21', '50.00', '10.50'), part('10', '20.00', '2.00')]),
    doc('NC A/1', 'ES', [part('21', '-10.00', '-2.10')], { type: 'NC' }),
    doc('FR A/3', 'FR', [part('20', '30.00', '6.00')]),
    doc('FR A/4', 'DE', [part('0', '500.00', '0.00', 'M16')]),
    doc('FR A/5', 'PT', [part('23', '80.00', '18.40')]),
    doc('FR A/6', 'US', [part('0', '90.00', '0.00', 'M05')]),
    doc('FR A/7', 'IT', [part('22', '40.00', '8.80')], { status: 'A' }),
  ];

  it('counts taxed sales to buyers in other member states by country, leaving out Portugal, exports, exempt intra-EU supplies and cancelled documents', () => {
    expect(ossOfMonth(documents)).toEqual([
      { country: 'ES', documents: 3, base: '160.00', vat: '31.40', rates: ['10', '21'] },
      { country: 'FR', documents: 1, base: '30.00', vat: '6.00', rates: ['20'] },
    ]);
  });

  it('adds the quarter from the months kept in Redis and names the months without a pack', async () => {
    expect(quarterOf('2026-11')).toEqual({ quarter: '2026-Q4', months: ['2026-10', '2026-11', '2026-12'] });
    const redis = new IORedis(REDIS_URL);
    const prefix = `test-oss-${randomBytes(4).toString('hex')}`;
    try {
      const oss = new OssMonths(redis, prefix);
      await oss.keep('shop1', '2026-10', [{ country: 'ES', documents: 2, base: '40.00', vat: '8.40', rates: ['21'] }]);
      const december = await oss.quarter('shop1', '2026-12', ossOfMonth(documents));
      expect(december).toEqual({
        quarter: '2026-Q4',
        months: ['2026-10', '2026-11', '2026-12'],
        missing: ['2026-11'],
        countries: [
          { country: 'ES', documents: 5, base: '200.00', vat: '39.80', rates: ['10', '21'] },
          { country: 'FR', documents: 1, base: '30.00', vat: '6.00', rates: ['20'] },
        ],
      });
      expect(await redis.hkeys(`${prefix}:month:oss:shop1`)).toEqual(['2026-10']);
    } finally {
      await redis.del(`${prefix}:month:oss:shop1`);
      redis.disconnect();
    }
  });
});
