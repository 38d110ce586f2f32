import { Decimal, formatDecimal, parseDecimal, round } from '../../client/money';

/**
 * Portuguese number and date formatting for printed documents: a space between thousands and a
 * decimal comma ("1 234,56 €"), dates as dd-mm-yyyy.
 */

/** "1 234,56"; `places` decimals, half away from zero. */
export function formatNumberPt(value: Decimal | string, places = 2): string {
  const text = formatDecimal(round(typeof value === 'string' ? parseDecimal(value) : value, places), places);
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${negative ? '-' : ''}${grouped}${fraction ? `,${fraction}` : ''}`;
}

/** "1 234,56 €" for euros, "1 234,56 USD" for other currencies. */
export function formatMoneyPt(value: Decimal, currency = 'EUR'): string {
  return `${formatNumberPt(value)} ${currency.toUpperCase() === 'EUR' ? '€' : currency.toUpperCase()}`;
}

/** A rate or quantity without needless zeros: "23", "6,5", "1,25". */
export function formatPlainPt(value: string): string {
  return formatDecimal(parseDecimal(value)).replace('.', ',');
}

/** yyyy-mm-dd (or yyyy-mm-ddThh:mm:ss) → dd-mm-yyyy (hh:mm). */
export function formatDatePt(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(date);
  if (!match) return date;
  const [, y, m, d, hh, mm] = match;
  return `${d}-${m}-${y}${hh !== undefined ? ` ${hh}:${mm}` : ''}`;
}
