import { documentForSale } from '../../law/order-to-document';
import { creditNoteForRefund } from '../../law/refund-to-credit-note';
import { isBindingHold } from '../../law/credit-limits';
import { mappingText } from '../../law/mapping-messages';
import type { MappingSettingsInput } from '../../law/mapping-settings';
import type { Sale, SaleRefund } from '../../law/sale';

/**
 * Issue 26, point 9: the art. 53 regime's limits since DL 35/2025 (from 2025-07-01): a shop passing
 * EUR 18,750 in the year leaves the regime at once and the invoice that crosses it already carries
 * VAT. The connector counts the year's M10 documents (exemptions.regimeTurnover); the rule is the
 * law's: near the limit a warning, an M10 invoice that would cross it is held (binding).
 * `exemptions.regimeUntil` ends the regime: a sale after that day carries VAT.
 */

function sale(net: string, rate: number, paid = '2026-11-19T10:00:00Z'): Sale {
  const tax = ((Number(net) * rate) / 100).toFixed(2);
  return {
    platform: 'test',
    id: '7901',
    status: 'paid',
    payment: { state: 'paid', method: 'card', title: '', onDelivery: false },
    currency: 'EUR',
    pricesIncludeTax: false,
    paid,
    total: (Number(net) + Number(tax)).toFixed(2),
    billing: { firstName: 'Ana', lastName: 'Lopes', company: '', line1: 'Rua 1', line2: '', city: 'Braga', region: '', postcode: '4700-001', country: 'PT', email: '', phone: '' },
    lines: [{ id: '1', kind: 'product', name: 'Cesto de vime', sku: 'CV', productId: '71', quantity: 1, subtotal: net, total: net, taxes: rate > 0 ? [{ rateId: 'r', amount: tax }] : [], taxClass: '', attributes: [] }],
    discounts: [],
    taxRates: rate > 0 ? [{ id: 'r', label: 'IVA', percent: rate, code: '', compound: false }] : [],
    customerNote: '',
    taxNumbers: [],
    attributes: [],
    needsShipping: true,
  };
}

const issue = { issueDate: '2026-11-20' };
const m10 = (total?: string, extra: Record<string, unknown> = {}): MappingSettingsInput => ({
  exemptions: { regime: 'M10', ...(total ? { regimeTurnover: { year: 2026, total } } : {}), ...extra },
});

type Outcome = { code: string | undefined; holds: string[]; warned: boolean } | { refused: RegExp };

function outcome(input: Sale, settings: MappingSettingsInput): Outcome {
  try {
    const mapped = documentForSale(input, settings, issue);
    return {
      code: mapped.request.Document.TaxExemptionReasonCode,
      holds: mapped.holds.map((h) => h.code).filter((c) => c !== 'invoice-deadline'),
      warned: mapped.notes.some((n) => n.code === 'regime-limit-near'),
    };
  } catch (error) {
    return { refused: new RegExp((error as { code?: string }).code ?? 'unexpected') };
  }
}

describe('issue 26.9: the art. 53 regime limits (CIVA art. 53, DL 35/2025)', () => {
  it.each<[string, Sale, MappingSettingsInput, Outcome]>([
    ['CIVA art. 53, DL 35/2025: far below EUR 18,750, M10 issued', sale('200.00', 0), m10('5000.00'), { code: 'M10', holds: [], warned: false }],
    ['CIVA art. 53, DL 35/2025: from regimeWarnFrom (EUR 16,875) the invoice warns the exit is near', sale('200.00', 0), m10('16700.00'), { code: 'M10', holds: [], warned: true }],
    ['CIVA art. 53, DL 35/2025: exactly EUR 18,750 is still in the regime', sale('150.00', 0), m10('18600.00'), { code: 'M10', holds: [], warned: true }],
    ['CIVA art. 53, DL 35/2025: an M10 invoice that would cross EUR 18,750 is held (it must carry VAT)', sale('200.00', 0), m10('18600.00'), { code: 'M10', holds: ['regime-limit-crossed'], warned: false }],
    ['CIVA art. 53: a year not counted (a library caller) is not guessed', sale('200.00', 0), m10(), { code: 'M10', holds: [], warned: false }],
    ['CIVA art. 53: last year\'s count says nothing of this year', sale('200.00', 0), { exemptions: { regime: 'M10', regimeTurnover: { year: 2025, total: '18700.00' } } }, { code: 'M10', holds: [], warned: false }],
    ['CIVA art. 53, DL 35/2025: after exemptions.regimeUntil a taxed sale is issued with VAT', sale('200.00', 23), m10(undefined, { regimeUntil: '2026-11-10' }), { code: undefined, holds: [], warned: false }],
    ['CIVA art. 53, DL 35/2025: after exemptions.regimeUntil an untaxed sale has no reason (refused)', sale('200.00', 0), m10(undefined, { regimeUntil: '2026-11-10' }), { refused: /zero-vat-no-reason/ }],
    ['CIVA art. 53, 2(1)(c): up to exemptions.regimeUntil, a taxed line is still held', sale('200.00', 23, '2026-11-05T10:00:00Z'), m10(undefined, { regimeUntil: '2026-11-10' }), { code: undefined, holds: ['taxed-under-regime'], warned: false }],
  ])('%s', (_name, input, settings, expected) => {
    expect(outcome(input, settings)).toEqual(expected);
  });

  it('CIVA art. 53, DL 35/2025: the crossing hold binds and says the amounts and the way out', () => {
    const hold = documentForSale(sale('200.00', 0), m10('18600.00'), issue).holds.find((h) => h.code === 'regime-limit-crossed');
    expect(hold).toBeDefined();
    if (!hold) return;
    expect(isBindingHold(hold)).toBe(true);
    expect(mappingText('en', hold)).toContain('from EUR 18600.00 (its M10 documents so far) to EUR 18800.00, past EUR 18750');
    expect(mappingText('pt', hold)).toContain('exemptions.regimeUntil');
  });

  it('CIVA art. 29(7): a credit note of a sale made in the regime keeps M10 after regimeUntil', () => {
    const input = sale('200.00', 0, '2026-11-05T10:00:00Z');
    const refund: SaleRefund = { id: '1', saleId: input.id, created: '2026-11-19T10:00:00Z', amount: '200.00', reason: '', lines: [] };
    const credit = creditNoteForRefund(input, refund, 'FT 2026/10', m10(undefined, { regimeUntil: '2026-11-10' }), issue);
    expect(credit.request.Document.TaxExemptionReasonCode).toBe('M10');
  });
});
