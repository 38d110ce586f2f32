import { z } from 'zod';

/**
 * Money as shops send it: decimal text ("12.30", "-9.00", "0.9"). PHP prints tiny floats as
 * "1.0E-5" (WooCommerce's taxes[] carries such unrounded values now and then): read as the decimal
 * they mean. One rule for the platforms' payload schemas and the ingest's order summary.
 */

export const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;
const PHP_FLOAT = /^-?\d+(\.\d+)?E[+-]?\d+$/i;

/** The text trimmed, a PHP float print as its decimal. */
export function normalizeAmount(value: string): string {
  const text = value.trim();
  if (PHP_FLOAT.test(text)) return Number(text).toFixed(12).replace(/\.?0+$/, '');
  return text;
}

export const MoneyText = z
  .string({ message: 'must be decimal text like "12.30"' })
  .transform(normalizeAmount)
  .refine((text) => DECIMAL_TEXT.test(text), { message: 'must be decimal text like "12.30"' });
