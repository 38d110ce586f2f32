import { add, compare, Decimal, isZero, parseDecimal, subtract } from '../../client/money';
import { isEuCountry } from '../../law/countries';
import { PORTUGUESE_VAT_RATES, type DispatchRegion } from '../../law/vat-rates';
import { TAX_REGIONS, type MonthDocument, type TaxRegion } from './month-document';

/**
 * The month's sales laid out as the periodic VAT return (declaração periódica, quadro 06) lays them
 * out, per region (the mainland, the Azores and Madeira apart, as the return's annex R asks):
 * - field 1 / 2: base and VAT at the reduced rate; 5 / 6 intermediate; 3 / 4 normal;
 * - field 7: intra-EU supplies of goods and services declared in the recapitulative statement
 *   (M16; M40 to a buyer in another member state);
 * - field 8: exempt or not subject operations WITH the right to deduct (exports M05, M06, M40 to a
 *   buyer outside the EU, M44, the reverse-charge codes M30-M43);
 * - field 9: exempt or not subject operations WITHOUT it (art. 9 M07, art. 53 M10, M20, M99 and
 *   the other codes).
 * Which code goes to 8 or 9 is the accountant's to confirm (docs/accountant.md, "The month").
 * Cancelled documents count nothing; credit notes count negative.
 */

export type RateBand = 'reduced' | 'intermediate' | 'normal' | 'other';
export type BoxField = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'other-base' | 'other-vat';
export const BOX_FIELDS: readonly BoxField[] = ['1', '2', '5', '6', '3', '4', '7', '8', '9', 'other-base', 'other-vat'];

export type VatBoxes = Record<TaxRegion, Record<BoxField, Decimal>>;

const REGION_OF_CODE: Record<TaxRegion, DispatchRegion> = { PT: 'mainland', 'PT-AC': 'azores', 'PT-MA': 'madeira' };
const WITH_DEDUCTION = new Set(['M05', 'M06', 'M44', ...Array.from({ length: 14 }, (_, i) => `M${30 + i}`)]);

/** The band of a rate in a region on a day (Madeira's 5 % of 2024 is reduced, as is its 4 % now). */
export function rateBand(region: TaxRegion, percent: string, day: string): RateBand {
  const value = parseDecimal(percent);
  const found = PORTUGUESE_VAT_RATES.find((p) => p.region === REGION_OF_CODE[region] && compare(parseDecimal(p.percent), value) === 0 && p.from <= day && (p.until === undefined || day <= p.until));
  return found?.kind ?? 'other';
}

/** Field 7, 8 or 9 of an exempt part. */
export function exemptField(code: string | undefined, customerCountry: string | undefined): '7' | '8' | '9' {
  if (code === 'M16') return '7';
  if (code === 'M40') return customerCountry && customerCountry !== 'PT' && isEuCountry(customerCountry) ? '7' : '8';
  return code && WITH_DEDUCTION.has(code) ? '8' : '9';
}

const BAND_FIELDS: Record<RateBand, [BoxField, BoxField]> = { reduced: ['1', '2'], intermediate: ['5', '6'], normal: ['3', '4'], other: ['other-base', 'other-vat'] };

export function emptyBoxes(): VatBoxes {
  const zero = (): Record<BoxField, Decimal> => Object.fromEntries(BOX_FIELDS.map((f) => [f, { units: 0n, scale: 2 }])) as Record<BoxField, Decimal>;
  return { PT: zero(), 'PT-AC': zero(), 'PT-MA': zero() };
}

/** Adds one document's parts to the boxes (nothing for a cancelled one). */
export function addToBoxes(boxes: VatBoxes, doc: MonthDocument): void {
  if (doc.status === 'A') return;
  for (const part of doc.parts) {
    const region = boxes[part.region];
    if (isZero(parseDecimal(part.percent))) {
      const field = exemptField(part.exemptionCode, doc.customerCountry);
      region[field] = add(region[field], part.base);
      continue;
    }
    const [baseField, vatField] = BAND_FIELDS[rateBand(part.region, part.percent, doc.date)];
    region[baseField] = add(region[baseField], part.base);
    region[vatField] = add(region[vatField], part.tax);
  }
}

export function boxesOf(documents: readonly MonthDocument[]): VatBoxes {
  const boxes = emptyBoxes();
  for (const doc of documents) addToBoxes(boxes, doc);
  return boxes;
}

/** Each field's difference (a minus b), only where it is not zero. */
export function boxDifferences(a: VatBoxes, b: VatBoxes): { region: TaxRegion; field: BoxField; difference: Decimal }[] {
  const out: { region: TaxRegion; field: BoxField; difference: Decimal }[] = [];
  for (const region of TAX_REGIONS) {
    for (const field of BOX_FIELDS) {
      const difference = subtract(a[region][field], b[region][field]);
      if (!isZero(difference)) out.push({ region, field, difference });
    }
  }
  return out;
}
