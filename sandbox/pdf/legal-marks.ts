import { createHash } from 'node:crypto';
import type { DocumentTypeLetter } from '../reference-data';

/**
 * The marks a certified Portuguese document carries, made up for the sandbox, which has neither
 * an AT series registration nor a certified signing key:
 *
 * - ATCUD = series validation code + "-" + sequential number (Portaria 195/2020 art. 3-4). The
 *   sandbox's validation code is "SBX" + 5 characters derived from account, type and series, so
 *   it is stable across runs and visibly not one the tax authority gave.
 * - The "hash": certified software signs each document (RSA-SHA1, Portaria 363/2010) and prints
 *   characters 1, 11, 21 and 31 of the Base64 signature. The sandbox uses Base64 SHA-256 of the
 *   same inputs (date; entry time; number; gross total), not chained to the previous document.
 * - The certificate number is 0000, which the tax authority never issues.
 */

export const SANDBOX_CERTIFICATE_NUMBER = '0000';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function seriesValidationCode(accountTaxId: string, type: DocumentTypeLetter, serie: string): string {
  const digest = createHash('sha256').update(`${accountTaxId}:${type}:${serie}`).digest();
  let code = 'SBX';
  for (let i = 0; i < 5; i++) code += CODE_ALPHABET[digest[i] % CODE_ALPHABET.length];
  return code;
}

export function atcud(validationCode: string, sequence: number | undefined): string {
  return `${validationCode}-${sequence ?? 0}`;
}

export interface SignatureInput {
  /** yyyy-mm-dd */
  date: string;
  /** When the document was closed (SAF-T SystemEntryDate), epoch ms. */
  entryTime: number;
  number: string;
  /** Gross total with two decimals and a dot. */
  grossTotal: string;
}

/** The sandbox's stand-in for the document signature (Base64, 44 characters). */
export function sandboxSignature(input: SignatureInput): string {
  const entry = new Date(input.entryTime).toISOString().slice(0, 19);
  return createHash('sha256').update(`${input.date};${entry};${input.number};${input.grossTotal}`).digest('base64');
}

/** Characters 1, 11, 21 and 31 of the signature, as printed and as QR field Q. */
export function hashCharacters(signature: string): string {
  return [0, 10, 20, 30].map((i) => signature.charAt(i)).join('');
}
