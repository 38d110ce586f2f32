import type { LedgerEntry } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { VIES_REST_URL, ViesRegistry, ViesSettingsSchema } from '../../connector/vies/vies-registry';
import { TenantSchema } from '../../connector/config/tenant-config';
import { eventually, portugueseOrder, startHarness, type Harness } from './support/harness';
import { startViesStandIn, type StandIn } from './support/vies-stand-in';

describe('ViesRegistry over HTTP', () => {
  let vies: StandIn;
  beforeAll(async () => {
    vies = await startViesStandIn();
    vies.valid.add('DE123456789').add('EL094259216');
  });
  afterAll(async () => vies.close());

  it('a valid number is cached for cacheHours; Greece is asked as EL and answered as GR', async () => {
    let now = 1_000_000;
    const registry = new ViesRegistry(ViesSettingsSchema.parse({ url: vies.url }), () => now);
    expect(await registry.check('DE', '123456789')).toEqual({ verdict: { countryCode: 'DE', number: '123456789', valid: true } });
    expect(await registry.check('GR', '094259216')).toEqual({ verdict: { countryCode: 'GR', number: '094259216', valid: true } });
    expect(vies.asked.slice(-2)).toEqual([{ countryCode: 'DE', vatNumber: '123456789' }, { countryCode: 'EL', vatNumber: '094259216' }]);
    const asked = vies.asked.length;
    now += 23 * 3_600_000;
    await registry.check('DE', '123456789');
    expect(vies.asked.length).toBe(asked);
    now += 2 * 3_600_000;
    await registry.check('DE', '123456789');
    expect(vies.asked.length).toBe(asked + 1);
  });

  it('an invalid answer is kept one hour at most (the buyer may register or correct it)', async () => {
    let now = 5_000_000;
    const registry = new ViesRegistry(ViesSettingsSchema.parse({ url: vies.url }), () => now);
    expect(await registry.check('DE', '999999999')).toEqual({ verdict: { countryCode: 'DE', number: '999999999', valid: false } });
    const asked = vies.asked.length;
    now += 59 * 60_000;
    await registry.check('DE', '999999999');
    expect(vies.asked.length).toBe(asked);
    now += 2 * 60_000;
    await registry.check('DE', '999999999');
    expect(vies.asked.length).toBe(asked + 1);
  });

  it("a member state's registry down (MS_UNAVAILABLE), no answer in time, or no VIES at all: unavailable with the reason, never a verdict, never cached", async () => {
    vies.down.add('FR');
    // A timeout far above any answer's time on a loaded machine: the registry's own answer is read.
    const registry = new ViesRegistry(ViesSettingsSchema.parse({ url: vies.url, timeoutMs: 10_000 }));
    expect(await registry.check('FR', '40303265045')).toEqual({ unavailable: 'MS_UNAVAILABLE' });
    expect(await registry.check('FR', '40303265045')).toEqual({ unavailable: 'MS_UNAVAILABLE' });
    expect(vies.asked.filter((a) => a.countryCode === 'FR')).toHaveLength(2);
    // An answer held past a short timeout: no verdict, the wait named.
    vies.holdMs = 2_000;
    const impatient = new ViesRegistry(ViesSettingsSchema.parse({ url: vies.url, timeoutMs: 300 }));
    expect(await impatient.check('DE', '111111111')).toEqual({ unavailable: 'no answer within 300 ms' });
    vies.holdMs = 0;
    const nowhere = new ViesRegistry(ViesSettingsSchema.parse({ url: 'http://127.0.0.1:9/check-vat-number', timeoutMs: 2_000 }));
    expect(await nowhere.check('DE', '123456789')).toEqual({ unavailable: expect.stringMatching(/^unreachable \(/) });
  });
});

describe('the connector asks VIES before invoicing an EU business (tenant vies block)', () => {
  let vies: StandIn;
  let h: Harness;
  const invoiceOf = async (orderId: number): Promise<LedgerEntry | undefined> => (await h.connector?.ledger.forOrder('shop1', orderId))?.invoice;
  const germanBusiness = (vat: string) =>
    portugueseOrder({
      billing: { first_name: 'Jonas', last_name: 'Weber', company: 'Weber Fotografie GmbH', address_1: 'Torstraße 5', city: 'Berlin', postcode: '10119', country: 'DE', email: 'jonas@weber.example', phone: '' },
      meta: [{ key: '_billing_vat', value: vat }],
      items: [{ name: 'Tripé', sku: 'TRI-01', productId: 33, price: '45.00', quantity: 2 }],
      shipping: [],
    });

  beforeAll(async () => {
    vies = await startViesStandIn();
    vies.valid.add('DE123456789');
    h = await startHarness({ tenant: { vies: { url: vies.url, timeoutMs: 2_000 } }, pipeline: { attempts: 2, backoffMs: 50 } });
  });
  afterAll(async () => {
    await h.close();
    await vies.close();
  });

  it('confirmed valid: issued with M16, and the note on the order says VIES confirmed it', async () => {
    const order = germanBusiness('DE123456789');
    const id = Number(order.id);
    await h.deliver(order);
    await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
    const [doc] = await h.documentsOf(id);
    expect(doc.document.TaxExemptionReasonCode).toBe('M16');
    expect(vies.asked).toContainEqual({ countryCode: 'DE', vatNumber: '123456789' });
    const today = (await invoiceOf(id))?.documentDate ?? '';
    await eventually('the note', () => h.woo.notes(id).some((n) => n.note.includes(`VAT number DE123456789 confirmed valid by VIES on ${today}.`)));
  });

  it('VIES says invalid: the company\'s invoice waits for a person with the reason (no M16 on an unregistered number), nothing issued', async () => {
    const order = germanBusiness('DE987654321');
    const id = Number(order.id);
    await h.deliver(order);
    const entry = await eventually('refused with the reason', async () => {
      const invoice = await invoiceOf(id);
      return invoice?.state === 'mapping-failed' && invoice.action ? invoice : undefined;
    });
    expect(entry.detail).toContain('The VAT registry (VIES) says VAT number DE987654321 of');
    expect(entry.detail).toContain('RITI art. 14');
    expect(await h.documentsOf(id)).toHaveLength(0);
  });

  it('VIES down (whenUnavailable: wait): nothing issued, a person told why after the attempts; VIES back: the retry issues it once', async () => {
    vies.down.add('DE');
    try {
      const order = germanBusiness('DE123456780');
      vies.valid.add('DE123456780');
      const id = Number(order.id);
      await h.deliver(order);
      const entry = await eventually('flagged after the attempts', async () => {
        const invoice = await invoiceOf(id);
        return invoice?.action ? invoice : undefined;
      });
      expect(entry.detail).toBe('The invoice waits for the EU VAT registry (VIES), which could not confirm VAT number DE123456780 after 2 attempts (the VIES answered MS_UNAVAILABLE).');
      expect(entry.action).toContain('vies.whenUnavailable to "format-check"');
      expect(await h.documentsOf(id)).toHaveLength(0);
      await eventually('the note on the order', () => h.woo.notes(id).some((n) => n.note.includes('could not confirm VAT number DE123456780')));

      vies.down.delete('DE');
      const admin = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };
      expect((await fetch(`${h.connector?.origin}/admin/api/orders/shop1/${id}/retry`, { method: 'POST', headers: admin })).status).toBeLessThan(300);
      await eventually('written back', async () => (await invoiceOf(id))?.state === 'written-back');
      expect(await h.documentsOf(id)).toHaveLength(1);
    } finally {
      vies.down.delete('DE');
    }
  });
});

describe('whenUnavailable: format-check issues on the format alone, and says so on the order', () => {
  it('VIES down: issued with M16 and a warning note naming VIES and the setting', async () => {
    const vies = await startViesStandIn();
    vies.down.add('DE');
    const h = await startHarness({ tenant: { vies: { url: vies.url, whenUnavailable: 'format-check' } } });
    try {
      const order = portugueseOrder({
        billing: { first_name: 'Jonas', last_name: 'Weber', company: 'Weber Fotografie GmbH', address_1: 'Torstraße 5', city: 'Berlin', postcode: '10119', country: 'DE', email: 'jonas@weber.example', phone: '' },
        meta: [{ key: '_billing_vat', value: 'DE123456789' }],
        items: [{ name: 'Tripé', sku: 'TRI-01', productId: 33, price: '45.00', quantity: 1 }],
        shipping: [],
      });
      const id = Number(order.id);
      await h.deliver(order);
      await eventually('the number on the order', () => h.woo.meta(id, META.documentNumber) as string | undefined);
      expect((await h.documentsOf(id))[0].document.TaxExemptionReasonCode).toBe('M16');
      await eventually('the warning note', () => h.woo.notes(id).some((n) => n.note.includes('could not confirm VAT number DE123456789 (MS_UNAVAILABLE): issued on its format alone')));
    } finally {
      await h.close();
      await vies.close();
    }
  });
});

describe('RITI art. 14(1)(a): VIES is asked by default (a tenant without a vies block), false turns it off', () => {
  it('the tenant schema fills the VIES defaults; vies: false is kept as off', () => {
    const secret = (name: string) => ({ env: name });
    const tenant = { id: 'loja', shop: { url: 'https://loja.example.pt', consumerKey: secret('CK'), consumerSecret: secret('CS'), webhookSecret: secret('WS') }, invoicing: { token: secret('T'), email: 'api@loja.example.pt' } };
    const on = TenantSchema.safeParse(tenant);
    const off = TenantSchema.safeParse({ ...tenant, vies: false });
    expect([on.error?.issues, off.error?.issues]).toEqual([undefined, undefined]);
    expect(on.data?.vies).toMatchObject({ whenUnavailable: 'wait', url: VIES_REST_URL });
    expect(off.data?.vies).toBe(false);
  });
});
