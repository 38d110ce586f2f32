/**
 * Portuguese tax number (NIF) validation: nine digits, a valid leading group, and a mod-11 check
 * digit (weights 9..2 over the first eight digits; 11 - sum mod 11, where 10 and 11 become 0).
 */

/** The generic end-consumer NIF, used when the customer gives no tax id. */
export const CONSUMER_NIF = '999999990';

/**
 * Leading digit groups in use: 1-3 individuals, 45 non-residents, 5 companies, 6 public bodies,
 * 70-79 (without 73, 76) special entities, 90/91 condominiums and undivided estates, 98 non-resident
 * without a permanent establishment, 99 civil societies and the consumer NIF. 8 is obsolete.
 */
const VALID_PREFIXES = ['1', '2', '3', '45', '5', '6', '70', '71', '72', '74', '75', '77', '78', '79', '90', '91', '98', '99'];

export function portugueseNifCheckDigit(firstEight: string): number {
  let total = 0;
  for (let i = 0; i < 8; i += 1) total += Number(firstEight[i]) * (9 - i);
  const check = 11 - (total % 11);
  return check >= 10 ? 0 : check;
}

/** True for a well-formed Portuguese NIF; accepts an optional "PT" prefix and inner spaces. */
export function isValidPortugueseNif(nif: string): boolean {
  const digits = nif.replace(/\s+/g, '').replace(/^PT/i, '');
  if (!/^\d{9}$/.test(digits)) return false;
  if (!VALID_PREFIXES.some((prefix) => digits.startsWith(prefix))) return false;
  return portugueseNifCheckDigit(digits.slice(0, 8)) === Number(digits[8]);
}
