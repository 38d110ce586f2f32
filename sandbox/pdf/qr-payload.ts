import { add, compare, Decimal, formatDecimal, isZero, parseDecimal, round } from '../../client/money';

/**
 * The message of the tax authority's QR code (Portaria 195/2020; AT "Especificações Técnicas
 * Código de Barras Bidimensional (Código QR)"): fields `code:value` joined by `*`, in the table's
 * order; amounts with a dot and two decimals; optional fields left out when there is nothing to
 * say. Pure, so it can be checked against a hand-written example.
 */

export type TaxRegion = 'PT' | 'PT-AC' | 'PT-MA';
export type RateLevel = 'reduced' | 'intermediate' | 'normal';

export interface QrRate {
  rate: Decimal;
  base: Decimal;
  tax: Decimal;
}

export interface QrInput {
  issuerTaxId: string;
  /** 999999990 for a final consumer without NIF. */
  buyerTaxId: string;
  /** ISO country code, or undefined when unknown ("Desconhecido"). */
  buyerCountry: string | undefined;
  /** SAF-T type: FT, FS, FR, NC, ND, GT, GR. */
  documentType: string;
  /** SAF-T status: N normal, A cancelled. */
  status: 'N' | 'A';
  /** yyyy-mm-dd */
  date: string;
  /** SAF-T InvoiceNo / DocumentNumber, e.g. "FT A/12". */
  documentId: string;
  atcud: string;
  /** Base and tax per VAT rate, in euros; 0% lines are exempt (or, with M99, not subject). */
  rates: readonly QrRate[];
  /** The exemption is M99 "not subject": its base goes to L instead of I2. */
  notSubject: boolean;
  totalTax: Decimal;
  grossTotal: Decimal;
  withholding?: Decimal;
  hash4: string;
  certificate: string;
}

/**
 * Which region and band each accepted rate belongs to. 4% is the reduced rate of both islands:
 * it joins the region of the document's other island rates, Madeira when there are none.
 * 21% is no Portuguese rate today; it counts in N and O but has no region field.
 */
const RATE_TABLE: Readonly<Record<string, [TaxRegion, RateLevel]>> = {
  '6': ['PT', 'reduced'],
  '13': ['PT', 'intermediate'],
  '23': ['PT', 'normal'],
  '5': ['PT-MA', 'reduced'],
  '12': ['PT-MA', 'intermediate'],
  '22': ['PT-MA', 'normal'],
  '9': ['PT-AC', 'intermediate'],
  '16': ['PT-AC', 'normal'],
};

function rateKey(rate: Decimal): string {
  return formatDecimal(rate);
}

export function classifyRate(rate: Decimal, otherRates: readonly Decimal[]): [TaxRegion, RateLevel] | undefined {
  const key = rateKey(rate);
  if (key === '4') {
    const azores = otherRates.some((r) => RATE_TABLE[rateKey(r)]?.[0] === 'PT-AC');
    return [azores ? 'PT-AC' : 'PT-MA', 'reduced'];
  }
  return RATE_TABLE[key];
}

export function qrAmount(value: Decimal): string {
  return formatDecimal(round(value, 2), 2);
}

interface RegionBlock {
  region: TaxRegion;
  exempt?: Decimal;
  reduced?: [Decimal, Decimal];
  intermediate?: [Decimal, Decimal];
  normal?: [Decimal, Decimal];
}

function addPair(pair: [Decimal, Decimal] | undefined, base: Decimal, tax: Decimal): [Decimal, Decimal] {
  return pair ? [add(pair[0], base), add(pair[1], tax)] : [base, tax];
}

function regionBlocks(input: QrInput): { blocks: RegionBlock[]; notSubject?: Decimal } {
  const allRates = input.rates.map((r) => r.rate);
  const byRegion = new Map<TaxRegion, RegionBlock>();
  const block = (region: TaxRegion): RegionBlock => {
    const found = byRegion.get(region) ?? { region };
    byRegion.set(region, found);
    return found;
  };
  let exempt: Decimal | undefined;
  for (const r of input.rates) {
    if (isZero(r.rate)) {
      exempt = exempt ? add(exempt, r.base) : r.base;
      continue;
    }
    const where = classifyRate(r.rate, allRates);
    if (!where) continue;
    const [region, level] = where;
    const b = block(region);
    b[level] = addPair(b[level], r.base, r.tax);
  }
  // The first block holds the exempt base: the mainland when it is there, else the only region.
  const order: TaxRegion[] = ['PT', 'PT-AC', 'PT-MA'];
  const blocks = order.filter((region) => byRegion.has(region)).map((region) => block(region));
  if (blocks.length === 0 || (blocks.length > 1 && blocks[0].region !== 'PT')) blocks.unshift({ region: 'PT' });
  if (exempt && input.notSubject) return { blocks, notSubject: exempt };
  if (exempt) blocks[0].exempt = exempt;
  return { blocks };
}

export function qrPayload(input: QrInput): string {
  const fields: [string, string][] = [
    ['A', input.issuerTaxId],
    ['B', input.buyerTaxId],
    ['C', input.buyerCountry ?? 'Desconhecido'],
    ['D', input.documentType],
    ['E', input.status],
    ['F', input.date.replace(/-/g, '').slice(0, 8)],
    ['G', input.documentId],
    ['H', input.atcud],
  ];
  const { blocks, notSubject } = regionBlocks(input);
  ['I', 'J', 'K'].forEach((letter, i) => {
    const b = blocks[i];
    if (!b) return;
    fields.push([`${letter}1`, b.region]);
    if (b.exempt) fields.push([`${letter}2`, qrAmount(b.exempt)]);
    const pairs: [number, [Decimal, Decimal] | undefined][] = [
      [3, b.reduced],
      [5, b.intermediate],
      [7, b.normal],
    ];
    for (const [n, pair] of pairs) {
      if (!pair) continue;
      fields.push([`${letter}${n}`, qrAmount(pair[0])], [`${letter}${n + 1}`, qrAmount(pair[1])]);
    }
  });
  if (notSubject) fields.push(['L', qrAmount(notSubject)]);
  fields.push(['N', qrAmount(input.totalTax)], ['O', qrAmount(input.grossTotal)]);
  if (input.withholding && compare(input.withholding, parseDecimal(0)) > 0) fields.push(['P', qrAmount(input.withholding)]);
  fields.push(['Q', input.hash4], ['R', input.certificate]);
  return fields.map(([code, value]) => `${code}:${value}`).join('*');
}
