import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withReferenceRate } from '../../connector/pipeline/document-requests';
import { EcbRateSource, ExchangeRatesSettingsSchema, parseEcbRates } from '../../connector/rates/ecb-rates';
import { parseMappingSettings } from '../../law/mapping-settings';
import { documentForSale } from '../../law/order-to-document';
import { wooSale } from '../law/support/sale';
import { buildOrder } from '../law/support/woo-cart';

/**
 * Documents in another currency: the ECB reference rate of the day the tax is due, read from a
 * local stand-in of the ECB's rates file (same XML shape), cached; the static euroRates are the
 * fallback and warn that they may be stale.
 */
const ECB_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <Cube>
    <Cube time="2026-03-10"><Cube currency="USD" rate="1.0850"/><Cube currency="GBP" rate="0.8400"/></Cube>
    <Cube time="2026-03-06"><Cube currency="USD" rate="1.0800"/><Cube currency="GBP" rate="0.8350"/></Cube>
  </Cube>
</gesmes:Envelope>`;

describe('the ECB reference rates, from a local stand-in of the rates file', () => {
  let server: Server;
  let url = '';
  let requests = 0;
  let down = false;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      if (down) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml' }).end(ECB_FILE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/eurofxref-hist-90d.xml`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('parses each day and currency of the file', () => {
    const rates = parseEcbRates(ECB_FILE);
    expect([...rates.keys()]).toEqual(['2026-03-10', '2026-03-06']);
    expect(rates.get('2026-03-06')?.get('GBP')).toBe('0.8350');
  });

  it.each([
    ['the day itself', 'USD', '2026-03-10', { perEuro: '1.0850', day: '2026-03-10', euroRate: '0.9216589862' }],
    ['a weekend takes the last publication before it', 'USD', '2026-03-08', { perEuro: '1.0800', day: '2026-03-06', euroRate: '0.9259259259' }],
    ['a currency the ECB does not quote', 'AOA', '2026-03-10', undefined],
    ['a day before the file', 'USD', '2026-03-01', undefined],
  ])('%s', async (_name, currency, day, expected) => {
    const source = new EcbRateSource(ExchangeRatesSettingsSchema.parse({ url }));
    expect(await source.rateOn(currency, day)).toEqual(expected);
  });

  it('the file is read once per cache time', async () => {
    let now = 1_000;
    const source = new EcbRateSource(ExchangeRatesSettingsSchema.parse({ url, cacheHours: 1 }), () => now);
    const before = requests;
    await source.rateOn('USD', '2026-03-10');
    await source.rateOn('GBP', '2026-03-10');
    expect(requests).toBe(before + 1);
    now += 3_600_000;
    await source.rateOn('USD', '2026-03-10');
    expect(requests).toBe(before + 2);
  });

  const usdOrder = () =>
    wooSale(
      buildOrder({
        id: 8100,
        currency: 'USD',
        items: [{ name: 'Caneca', sku: 'CAN', productId: 1, price: '10.00', quantity: 1, rate: '23' }],
        billing: { first_name: 'Ann', last_name: 'Lee', address_1: 'Rua 1', city: 'Lisboa', postcode: '1100-053', country: 'PT' },
        datePaidGmt: '2026-03-08T10:00:00',
        dateCreatedGmt: '2026-03-08T10:00:00',
      }),
    );

  it("the document carries the ECB rate of the sale's day, not the static setting", async () => {
    down = false;
    const settings = parseMappingSettings({ euroRates: { USD: '0.5' } });
    const rated = await withReferenceRate(new EcbRateSource(ExchangeRatesSettingsSchema.parse({ url })), usdOrder(), settings);
    expect(rated.note).toBeUndefined();
    const { request, notes } = documentForSale(usdOrder(), rated.settings);
    expect(request.Document.EuroRate).toBe('0.9259259259');
    expect(notes.map((n) => n.message)).toContain('Order in USD: EuroRate 0.9259259259, the ECB reference rate of 2026-03-06');
  });

  it('the ECB file unavailable: the static rate with a warning that it may be stale, and why', async () => {
    down = true;
    const settings = parseMappingSettings({ euroRates: { USD: '0.5' } });
    const rated = await withReferenceRate(new EcbRateSource(ExchangeRatesSettingsSchema.parse({ url })), usdOrder(), settings);
    expect(rated.note?.message).toMatch(/The ECB reference rates could not be read \(the ECB rates file answered HTTP 503\): the static euroRates\.USD is used/);
    const { request, notes } = documentForSale(usdOrder(), rated.settings);
    expect(request.Document.EuroRate).toBe('0.5');
    expect(notes.some((n) => n.level === 'warning' && /EuroRate 0\.5 from the mapping settings \(euroRates\.USD\), a fixed rate that may be stale/.test(n.message))).toBe(true);
  });
});
