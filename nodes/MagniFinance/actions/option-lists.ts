import type { INodePropertyOptions } from 'n8n-workflow';

import { ISO_COUNTRY_CODES, ISO_CURRENCY_CODES } from '../../../client/schemas/iso-codes';

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
 * The tax authority's exemption reason codes most shops meet (see docs/mapping.md for when each
 * applies; the accountant decides). Other codes of the authority's table: use an expression.
 */
export const EXEMPTION_CODE_OPTIONS: INodePropertyOptions[] = [
  { name: 'M01 - Art. 16(6) CIVA', value: 'M01' },
  { name: 'M04 - Art. 13 CIVA (Imports)', value: 'M04' },
  { name: 'M05 - Art. 14 CIVA (Exports, International Transport)', value: 'M05' },
  { name: 'M06 - Art. 15 CIVA', value: 'M06' },
  { name: 'M07 - Art. 9 CIVA (Exempt Domestic Operations)', value: 'M07' },
  { name: 'M10 - Art. 53 CIVA (Small-Business Regime)', value: 'M10' },
  { name: 'M16 - Art. 14 RITI (Intra-EU Supply of Goods)', value: 'M16' },
  { name: 'M30 - Reverse Charge, Art. 2(1)(i) CIVA', value: 'M30' },
  { name: 'M31 - Reverse Charge, Art. 2(1)(j) CIVA', value: 'M31' },
  { name: 'M32 - Reverse Charge, Art. 2(1)(l) CIVA', value: 'M32' },
  { name: 'M33 - Reverse Charge, Art. 2(1)(m) CIVA', value: 'M33' },
  { name: 'M40 - Reverse Charge, Art. 6(6)(a) CIVA (Services to a Business Abroad)', value: 'M40' },
  { name: 'M41 - Art. 8(3) RITI', value: 'M41' },
  { name: 'M42 - DL 21/2007', value: 'M42' },
  { name: 'M43 - DL 362/99', value: 'M43' },
  { name: 'M99 - Not Subject', value: 'M99' },
];
