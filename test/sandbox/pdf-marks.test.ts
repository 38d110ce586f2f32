import { formatDecimal, parseDecimal } from '../../client/money';
import { exemptionText, EXEMPTION_REASONS } from '../../sandbox/pdf/exemption-reasons';
import { formatDatePt, formatMoneyPt, formatNumberPt } from '../../sandbox/pdf/format';
import { atcud, hashCharacters, sandboxSignature, seriesValidationCode } from '../../sandbox/pdf/legal-marks';
import { QrInput, qrPayload } from '../../sandbox/pdf/qr-payload';
import { TAX_EXEMPTION_CODES } from '../../sandbox/reference-data';

/** The pure parts of the printed document: the AT QR message, ATCUD and hash marks, texts, formats. */

const d = parseDecimal;

function input(overrides: Partial<QrInput> = {}): QrInput {
  return {
    issuerTaxId: '509442013',
    buyerTaxId: '505123452',
    buyerCountry: 'PT',
    documentType: 'FT',
    status: 'N',
    date: '2026-03-02',
    documentId: 'FT A/1',
    atcud: 'SBXQRZJV-1',
    rates: [],
    notSubject: false,
    totalTax: d('0'),
    grossTotal: d('0'),
    hash4: 'jh4B',
    certificate: '0000',
    ...overrides,
  };
}

describe('the QR message (Portaria 195/2020, AT technical specification)', () => {
  it("reproduces the specification's simplified-invoice example (without its optional S field)", () => {
    const message = qrPayload(
      input({
        issuerTaxId: '123456789',
        buyerTaxId: '999999990',
        documentType: 'FS',
        date: '2019-08-12',
        documentId: 'FS CDVF/12345',
        atcud: 'CDF7T5HD-12345',
        rates: [{ rate: d('23'), base: d('0.65'), tax: d('0.15') }],
        totalTax: d('0.15'),
        grossTotal: d('0.80'),
        hash4: 'YhGV',
        certificate: '9999',
      }),
    );
    expect(message).toBe(
      'A:123456789*B:999999990*C:PT*D:FS*E:N*F:20190812*G:FS CDVF/12345*H:CDF7T5HD-12345*I1:PT*I7:0.65*I8:0.15*N:0.15*O:0.80*Q:YhGV*R:9999',
    );
  });

  it('puts the mainland rates in I3..I8 in the order reduced, intermediate, normal (hand-computed invoice)', () => {
    // 1234.50 at 6% → 74.07; 10.77 at 13% → 1.40; 29.07 at 23% → 6.69 (6.6861); N = 82.16; O = 1274.34 + 82.16.
    const message = qrPayload(
      input({
        rates: [
          { rate: d('23'), base: d('29.07'), tax: d('6.69') },
          { rate: d('6'), base: d('1234.5'), tax: d('74.07') },
          { rate: d('13'), base: d('10.77'), tax: d('1.4') },
        ],
        totalTax: d('82.16'),
        grossTotal: d('1356.5'),
      }),
    );
    expect(message).toBe(
      'A:509442013*B:505123452*C:PT*D:FT*E:N*F:20260302*G:FT A/1*H:SBXQRZJV-1*I1:PT*I3:1234.50*I4:74.07*I5:10.77*I6:1.40*I7:29.07*I8:6.69*N:82.16*O:1356.50*Q:jh4B*R:0000',
    );
  });

  it('an exempt base goes to I2, a not-subject (M99) base to L; no tax gives N:0.00', () => {
    const exempt = { rate: d('0'), base: d('509.6'), tax: d('0') };
    expect(qrPayload(input({ buyerCountry: 'ES', buyerTaxId: 'B12345678', rates: [exempt], grossTotal: d('509.6') }))).toBe(
      'A:509442013*B:B12345678*C:ES*D:FT*E:N*F:20260302*G:FT A/1*H:SBXQRZJV-1*I1:PT*I2:509.60*N:0.00*O:509.60*Q:jh4B*R:0000',
    );
    expect(qrPayload(input({ rates: [exempt], notSubject: true, grossTotal: d('509.6') }))).toContain('*I1:PT*L:509.60*N:0.00*');
  });

  it('islands: a single region fills the I block with its code; a second region goes to J', () => {
    const azores = qrPayload(input({ rates: [{ rate: d('16'), base: d('100'), tax: d('16') }, { rate: d('4'), base: d('10'), tax: d('0.4') }] }));
    expect(azores).toContain('*I1:PT-AC*I3:10.00*I4:0.40*I7:100.00*I8:16.00*');
    const mixed = qrPayload(input({ rates: [{ rate: d('22'), base: d('50'), tax: d('11') }, { rate: d('23'), base: d('100'), tax: d('23') }] }));
    expect(mixed).toContain('*I1:PT*I7:100.00*I8:23.00*J1:PT-MA*J7:50.00*J8:11.00*N:');
  });

  it('a cancelled document has E:A; withholding is P; a buyer country unknown is "Desconhecido"', () => {
    const message = qrPayload(input({ status: 'A', buyerCountry: undefined, withholding: d('25') }));
    expect(message).toContain('*C:Desconhecido*');
    expect(message).toContain('*E:A*');
    expect(message).toContain('*O:0.00*P:25.00*Q:');
  });
});

describe('ATCUD and signature characters', () => {
  it('validation code: SBX + 5 characters, stable, different per series and type', () => {
    const code = seriesValidationCode('509442013', 'I', 'A');
    expect(code).toMatch(/^SBX[A-Z2-9]{5}$/);
    expect(seriesValidationCode('509442013', 'I', 'A')).toBe(code);
    expect(seriesValidationCode('509442013', 'I', 'B')).not.toBe(code);
    expect(seriesValidationCode('509442013', 'C', 'A')).not.toBe(code);
    expect(atcud(code, 35)).toBe(`${code}-35`);
  });

  it('hash characters are characters 1, 11, 21 and 31 of the signature', () => {
    expect(hashCharacters('abcdefghijKLMNOPQRSTuvwxyz0123456789')).toBe('aKu4');
    const signature = sandboxSignature({ date: '2026-03-02', entryTime: Date.UTC(2026, 2, 2, 10), number: 'FT A/1', grossTotal: '1356.50' });
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(sandboxSignature({ date: '2026-03-02', entryTime: Date.UTC(2026, 2, 2, 10), number: 'FT A/1', grossTotal: '1356.51' })).not.toBe(signature);
  });
});

describe('exemption reasons print their legal text', () => {
  it('every code the sandbox accepts has a text', () => {
    expect([...TAX_EXEMPTION_CODES].filter((code) => EXEMPTION_REASONS[code] === undefined)).toEqual([]);
  });

  it.each([
    ['M16', 'M16 - Isento artigo 14.º do RITI'],
    ['M05', 'M05 - Isento artigo 14.º do CIVA'],
    ['M07', 'M07 - Isento artigo 9.º do CIVA'],
    ['M10', 'M10 - IVA - regime de isenção (artigo 53.º do CIVA)'],
    ['M40', 'M40 - IVA - autoliquidação (artigo 6.º, n.º 6, alínea a) do CIVA, a contrário)'],
    ['M99', 'M99 - Não sujeito ou não tributado'],
  ])('%s', (code, text) => {
    expect(exemptionText(code)).toBe(text);
  });
});

describe('Portuguese formatting', () => {
  it.each([
    ['1234.5', '1 234,50'],
    ['0.05', '0,05'],
    ['1234567.891', '1 234 567,89'],
    ['-1234.5', '-1 234,50'],
    ['999', '999,00'],
  ])('%s → %s', (value, text) => {
    expect(formatNumberPt(value)).toBe(text);
  });

  it('money and dates', () => {
    expect(formatMoneyPt(d('1356.5'))).toBe('1 356,50 €');
    expect(formatMoneyPt(d('10'), 'usd')).toBe('10,00 USD');
    expect(formatDatePt('2026-03-02')).toBe('02-03-2026');
    expect(formatDatePt('2026-03-02T09:30:00')).toBe('02-03-2026 09:30');
    expect(formatDecimal(d('6'))).toBe('6');
  });
});
