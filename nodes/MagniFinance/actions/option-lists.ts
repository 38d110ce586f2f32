import type { INodePropertyOptions } from 'n8n-workflow';

import { ISO_COUNTRY_CODES, ISO_CURRENCY_CODES } from '../../../client/schemas/iso-codes';
import { EXEMPTION_CODES } from '../../../law/exemption-codes';

/**
 * Pick lists for fields that take a code: the client's ISO lists (so the list and the local
 * validation never disagree), named in English by the runtime's ICU data. Any value can still be
 * given through an expression; the client validates it before sending.
 */
function named(codes: ReadonlySet<string>, type: 'region' | 'currency'): INodePropertyOptions[] {
  const names = new Intl.DisplayNames(['en'], { type, fallback: 'code' });
  return [...codes]
    .map((code) => ({ name: `${names.of(code) ?? code} (${code})`, value: code }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export const COUNTRY_OPTIONS: INodePropertyOptions[] = named(ISO_COUNTRY_CODES, 'region');

export const CURRENCY_OPTIONS: INodePropertyOptions[] = named(ISO_CURRENCY_CODES, 'currency');

/**
 * Portuguese VAT rates by region (CIVA art. 18; Azores and Madeira regional rates), in numeric
 * order (as text, "12%" would come before "4%"). The 0% entry needs a Tax Exemption Reason Code.
 */
export const VAT_RATE_OPTIONS: INodePropertyOptions[] = [
  { name: '0% (Exempt or Not Subject: Needs an Exemption Code)', value: 0 },
  { name: '4% (Azores and Madeira Reduced)', value: 4 },
  { name: '6% (Mainland Reduced)', value: 6 },
  { name: '9% (Azores Intermediate)', value: 9 },
  { name: '12% (Madeira Intermediate)', value: 12 },
  { name: '13% (Mainland Intermediate)', value: 13 },
  { name: '16% (Azores Normal)', value: 16 },
  { name: '22% (Madeira Normal)', value: 22 },
  { name: '23% (Mainland Normal)', value: 23 },
];

/**
 * The tax authority's exemption reason codes, from the one table the order mapping also uses
 * (law/exemption-codes.ts): every code still in force, named with the mention the
 * document prints. Which one applies is the accountant's call (docs/mapping.md).
 */
export const EXEMPTION_CODE_OPTIONS: INodePropertyOptions[] = EXEMPTION_CODES.filter((entry) => entry.use !== 'retired').map(
  (entry) => ({ name: `${entry.code} - ${entry.mention}`, value: entry.code, description: entry.basis }),
);
