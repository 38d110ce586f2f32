import { CONSUMER_NIF, isValidPortugueseNif } from '../client/nif';
import { isIsoCountryCode } from '../client/schemas/iso-codes';
import { countryOfVatPrefix, isEuCountry, placeForVat } from './countries';
import { itemType } from './line-type';
import { info, MappingNote, warning } from './mapping-errors';
import type { MappingMessage } from './mapping-messages';
import { MappingSettings } from './mapping-settings';
import { productLinesOf, type Sale, type SaleTaxNumber } from './sale';
import { hasEuVatFormat, vatPrefixOf, type VatNumberRegistry, type VatNumberVerdict } from './vat-number';

/** Who the buyer is for tax purposes: the NIF on the document and the country it belongs to. */
export interface BuyerIdentity {
  nif: string;
  countryCode: string;
  kind: 'consumer' | 'portuguese-nif' | 'foreign-vat';
  /** A company (or other entity) rather than a private person: decides simplified-invoice limits. */
  isBusiness: boolean;
  /** An EU VAT number outside Portugal: 0% intra-community supplies (M16). */
  isEuVatNumber: boolean;
  /** Why no invoice may be issued until a person corrects the order (set only by resolveBuyer). */
  hold?: MappingMessage;
  /** A VAT registry (VIES) confirmed the EU VAT number valid (the verdict the caller passed). */
  viesConfirmed?: boolean;
}

/** NIF groups of private persons: 1-3 residents, 45 non-residents. */
const INDIVIDUAL_PREFIXES = ['1', '2', '3', '45'];

/** The buyer's tax number: the first the sale lists (the platform's adapter ranks them). */
function givenNumber(sale: Sale): SaleTaxNumber | undefined {
  return sale.taxNumbers.find((number) => number.value.trim() !== '');
}

/** A business established in Portugal (the services rule, a domestic reverse charge): a company (or a VAT-number field) with a Portuguese NIF. */
export function isPortugueseBusiness(buyer: BuyerIdentity): boolean {
  return buyer.kind === 'portuguese-nif' && buyer.isBusiness && buyer.countryCode === 'PT';
}

export function billingCountry(sale: Sale, settings: MappingSettings): string {
  const country = sale.billing.country.trim().toUpperCase();
  return country === '' ? settings.defaultCountry : country;
}

/** A company buys: a billing company is given, or the number was typed in a VAT-number field. */
function companyBuyer(sale: Sale, given: SaleTaxNumber): boolean {
  return sale.billing.company.trim() !== '' || given.businessField;
}

/**
 * A company whose tax number cannot be used: its invoice must carry a valid one (CIVA art. 36(5)(a);
 * for a 0% intra-EU supply, RITI art. 14). Issued to the consumer NIF, the company could not deduct
 * it and nobody could correct it (only a credit note reverses it): held, with `problem` as the why.
 */
function companyHeld(sale: Sale, country: string, problem: (company: string) => MappingMessage): BuyerIdentity {
  return { nif: CONSUMER_NIF, countryCode: country, kind: 'consumer', isBusiness: true, isEuVatNumber: false, hold: problem(sale.billing.company.trim()) };
}

function companyWithInvalidNif(sale: Sale, raw: string, country: string): BuyerIdentity {
  return companyHeld(sale, country, (company) => ({ code: 'company-nif-invalid', params: { nif: raw, company } }));
}

/**
 * The buyer's resolved identity, with a registry's verdict on an EU VAT number when the caller asked
 * one (`verdict`, see `vatNumberToCheck`): a number the registry calls invalid is treated as a
 * malformed one (a company's order held, a private buyer's invoiced to the consumer NIF).
 */
export function resolveBuyer(sale: Sale, settings: MappingSettings, notes: MappingNote[], verdict?: VatNumberVerdict): BuyerIdentity {
  const buyer = resolveFormat(sale, settings, notes);
  if (!verdict || !buyer.isEuVatNumber || verdict.countryCode !== buyer.countryCode || verdict.number !== buyer.nif) return buyer;
  if (verdict.valid) {
    notes.push(info('vies-valid', { vat: `${vatPrefixOf(buyer.countryCode)}${buyer.nif}` }));
    return { ...buyer, viesConfirmed: true };
  }
  const text = `${vatPrefixOf(buyer.countryCode)}${buyer.nif}`;
  const found = givenNumber(sale);
  if (settings.holdCompanyWithInvalidNif && found && companyBuyer(sale, found)) {
    return companyHeld(sale, billingCountry(sale, settings), (company) => ({ code: 'company-vies-invalid', params: { vat: text, company } }));
  }
  notes.push(warning('vies-invalid-consumer', { vat: text, consumerNif: CONSUMER_NIF }));
  return { nif: CONSUMER_NIF, countryCode: billingCountry(sale, settings), kind: 'consumer', isBusiness: sale.billing.company.trim() !== '', isEuVatNumber: false };
}

/**
 * The buyer a credit note names: the one its invoice carried (`invoice`, the tax number on the
 * issued invoice), never re-derived from the order as it reads now (CIVA art. 29(7): it corrects that
 * invoice; art. 78(2): the regularisation of the tax that invoice charged). An invoice issued to the
 * final consumer (no NIF, or a number VIES called invalid, or a company's hold released by a person)
 * is credited to the final consumer, taxed as it was; a NIF added or changed on the order since stays
 * off the credit note. Without `invoice` (a library caller who does not say), the order's buyer.
 */
export function invoicedBuyer(sale: Sale, settings: MappingSettings, notes: MappingNote[], invoice?: { nif: string; countryCode?: string }): BuyerIdentity {
  const readNow: MappingNote[] = [];
  const now = resolveFormat(sale, settings, readNow);
  const nif = invoice?.nif.trim().toUpperCase().replace(/[\s.\-/]/g, '') ?? '';
  const sameBuyer = nif === now.nif && !now.hold && (invoice?.countryCode === undefined || invoice.countryCode.toUpperCase() === now.countryCode);
  if (nif === '' || sameBuyer) {
    notes.push(...readNow);
    return now;
  }
  const orderNif = givenNumber(sale)?.value.trim().slice(0, 40) ?? '';
  notes.push(info('credit-note-invoice-buyer', { nif, orderNif: comparable(orderNif) === nif ? '' : orderNif }));
  const company = sale.billing.company.trim() !== '';
  if (nif === CONSUMER_NIF) {
    return { nif, countryCode: invoice?.countryCode?.toUpperCase() ?? billingCountry(sale, settings), kind: 'consumer', isBusiness: company, isEuVatNumber: false };
  }
  const country = invoice?.countryCode?.toUpperCase() ?? (/^\d{9}$/.test(nif) && isValidPortugueseNif(nif) ? 'PT' : billingCountry(sale, settings));
  if (country === 'PT') {
    const individual = INDIVIDUAL_PREFIXES.some((p) => nif.startsWith(p));
    return { nif, countryCode: 'PT', kind: 'portuguese-nif', isBusiness: company || !individual, isEuVatNumber: false };
  }
  return { nif, countryCode: country, kind: 'foreign-vat', isBusiness: true, isEuVatNumber: isEuCountry(country) };
}

/** A tax number as compared with an invoice's: without spaces and separators, upper case, without a country prefix. */
function comparable(value: string): string {
  const text = value.toUpperCase().replace(/[\s.\-/]/g, '');
  return /^[A-Z]{2}[0-9A-Z]/.test(text) && isIsoCountryCode(countryOfVatPrefix(text.slice(0, 2))) ? text.slice(2) : text;
}

/**
 * The EU VAT number (country, number without prefix) a registry should confirm for this sale: the
 * buyer's, when the sale has goods going to another member state (a candidate for M16, whose
 * substantive condition is a number valid in VIES: RITI art. 14(1)(a), Lei 49/2020) or services
 * (a candidate for M40: the seller may treat the buyer as a business only with its number confirmed,
 * Reg. 282/2011 art. 18(1)(a)). Domestic sales of goods need no VIES answer.
 */
export function vatNumberToCheck(sale: Sale, settings: MappingSettings): { countryCode: string; number: string } | undefined {
  const buyer = resolveFormat(sale, settings, []);
  if (!buyer.isEuVatNumber) return undefined;
  const shipping = sale.shipping?.country.trim() ? sale.shipping : undefined;
  const place = placeForVat(shipping ? shipping.country : billingCountry(sale, settings), shipping ? shipping.postcode : sale.billing.postcode);
  const types = productLinesOf(sale)
    .filter((item) => item.quantity > 0)
    .map((item) => itemType(sale, item, settings));
  // Goods to another member state (M16), or services to a business there (M40, Reg. 282/2011 art. 18(1)(a)).
  const wanted = (types.includes('P') && place.territory === 'EU') || types.includes('S');
  return wanted ? { countryCode: buyer.countryCode, number: buyer.nif } : undefined;
}

/** Asks the registry about the sale's EU VAT number, if it has one; the verdict goes to the mapping. */
export async function checkVatNumber(sale: Sale, settings: MappingSettings, registry: VatNumberRegistry): Promise<VatNumberVerdict | undefined> {
  const wanted = vatNumberToCheck(sale, settings);
  return wanted ? registry(wanted.countryCode, wanted.number) : undefined;
}

function resolveFormat(sale: Sale, settings: MappingSettings, notes: MappingNote[]): BuyerIdentity {
  const country = billingCountry(sale, settings);
  const hasCompany = sale.billing.company.trim() !== '';
  const consumer = (reason: MappingNote): BuyerIdentity => {
    notes.push(reason);
    return { nif: CONSUMER_NIF, countryCode: country, kind: 'consumer', isBusiness: hasCompany, isEuVatNumber: false };
  };

  const found = givenNumber(sale);
  // An EU VAT number that does not have its country's format: a typing error. A company's invoice
  // needs its number (held); a private buyer gets the consumer NIF.
  const badEuVatNumber = (vatCountry: string): BuyerIdentity => {
    const text = found?.value.trim() ?? '';
    if (settings.holdCompanyWithInvalidNif && found && companyBuyer(sale, found)) {
      return companyHeld(sale, country, (company) => ({ code: 'company-vat-format', params: { vat: text, company, country: vatCountry } }));
    }
    return consumer(warning('vat-format-consumer', { vat: text, country: vatCountry, consumerNif: CONSUMER_NIF }));
  };
  if (!found) return consumer(info('no-nif', { consumerNif: CONSUMER_NIF }));
  const raw = found.value.trim();
  const compact = raw.toUpperCase().replace(/[\s.\-/]/g, '');

  const prefixed = /^([A-Z]{2})([0-9A-Z]+)$/.exec(compact);
  const prefixCountry = prefixed ? countryOfVatPrefix(prefixed[1]) : undefined;
  if (prefixed && prefixCountry && prefixCountry !== 'PT' && isIsoCountryCode(prefixCountry)) {
    // XI: a Northern Ireland trader's EU VAT number for goods (Windsor Framework), checked in VIES like a member state's.
    const euNumber = isEuCountry(prefixCountry) || prefixed[1] === 'XI';
    if (euNumber && !hasEuVatFormat(prefixCountry, prefixed[2])) {
      return badEuVatNumber(prefixed[1] === 'XI' ? 'XI' : prefixCountry);
    }
    notes.push(info('vat-number-kept', { vat: compact, country: prefixCountry }));
    if (prefixCountry !== country) notes.push(info('vat-country-differs', { vatCountry: prefixCountry, country }));
    return {
      nif: prefixed[2].slice(0, 20),
      countryCode: prefixCountry,
      kind: 'foreign-vat',
      isBusiness: true,
      isEuVatNumber: euNumber,
    };
  }

  const portuguese = prefixCountry === 'PT' ? compact.slice(2) : compact;
  if (prefixCountry === 'PT' || country === 'PT') {
    if (/^\d{9}$/.test(portuguese) && isValidPortugueseNif(portuguese)) {
      if (portuguese === CONSUMER_NIF) {
        // A company that typed the consumer NIF: its invoice must carry its own (CIVA art. 36(5)(a)).
        if (settings.holdCompanyWithInvalidNif && companyBuyer(sale, found)) {
          return companyHeld(sale, country, (company) => ({ code: 'company-typed-consumer-nif', params: { company, consumerNif: CONSUMER_NIF } }));
        }
        return consumer(info('consumer-nif-given', { consumerNif: CONSUMER_NIF }));
      }
      const individual = INDIVIDUAL_PREFIXES.some((p) => portuguese.startsWith(p));
      return { nif: portuguese, countryCode: 'PT', kind: 'portuguese-nif', isBusiness: hasCompany || !individual, isEuVatNumber: false };
    }
    if (settings.holdCompanyWithInvalidNif && companyBuyer(sale, found)) return companyWithInvalidNif(sale, raw, country);
    return consumer(warning('nif-invalid', { nif: raw, consumerNif: CONSUMER_NIF }));
  }

  // A Portuguese NIF billed to an address abroad (a resident living abroad, a non-resident's 45...
  // NIF) stays on the invoice (CIVA art. 36(16)): a valid Portuguese NIF typed in a NIF field, or
  // any valid 45 NIF. A number typed in a VAT-number field is read as the billing country's.
  if (/^\d{9}$/.test(compact) && isValidPortugueseNif(compact) && compact !== CONSUMER_NIF && (compact.startsWith('45') || !found.businessField)) {
    notes.push(info('portuguese-nif-abroad', { nif: compact, country }));
    const individual = INDIVIDUAL_PREFIXES.some((p) => compact.startsWith(p));
    return { nif: compact, countryCode: 'PT', kind: 'portuguese-nif', isBusiness: hasCompany || !individual, isEuVatNumber: false };
  }

  // An EU VAT number typed without its country prefix (a Spanish business typing B12345678):
  // read with the billing country when it has that country's format.
  if (isEuCountry(country)) {
    if (!hasEuVatFormat(country, compact)) return badEuVatNumber(country);
    notes.push(info('vat-number-prefixed', { vat: compact, read: `${vatPrefixOf(country)}${compact}`, country }));
    return { nif: compact, countryCode: country, kind: 'foreign-vat', isBusiness: true, isEuVatNumber: true };
  }

  // A tax id from outside the EU without a country prefix: kept with the billing country.
  if (compact.length < 2 || compact.length > 20) {
    if (settings.holdCompanyWithInvalidNif && companyBuyer(sale, found)) return companyWithInvalidNif(sale, raw, country);
    return consumer(warning('tax-id-unusable', { taxId: raw, consumerNif: CONSUMER_NIF }));
  }
  // A tax number from outside the EU does not by itself make a business (a consumer's national id
  // is a tax number too): only with a billing company is the buyer a business for the services rule (M40).
  notes.push(info(hasCompany ? 'tax-id-kept' : 'tax-id-kept-consumer', { taxId: compact, country }));
  return { nif: compact, countryCode: country, kind: 'foreign-vat', isBusiness: hasCompany, isEuVatNumber: false };
}
