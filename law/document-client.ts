import { z } from 'zod';
import { InvoiceClient } from '../client/schemas/client';
import { PORTUGUESE_POSTCODE } from '../client/schemas/primitives';
import { BuyerIdentity } from './buyer-identity';
import { info, MappingNote, warning } from './mapping-errors';
import type { MappingMessage } from './mapping-messages';
import type { SaleAddress } from './sale';
import { clipText, joinParts, plainText } from './text';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** zod's address check (SendTo's), built once: building it per order cost more than the check. */
const ZOD_EMAIL = z.email();

/** The billing e-mail when it can be used as an address (Client.Email, SendTo). */
export function usableEmail(billing: SaleAddress): string | undefined {
  const email = billing.email.trim();
  // Both checks: the client schema's pattern (Client.Email) and zod's (SendTo).
  return email !== '' && email.length <= 255 && EMAIL.test(email) && ZOD_EMAIL.safeParse(email).success ? email : undefined;
}

function portuguesePostCode(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '');
  if (PORTUGUESE_POSTCODE.test(compact)) return compact;
  if (/^\d{7}$/.test(compact)) return `${compact.slice(0, 4)}-${compact.slice(4)}`;
  return undefined;
}

/** Client block from the billing address, clipped to the spec's S(n) limits. */
export function clientFromBilling(billing: SaleAddress, buyer: BuyerIdentity, notes: MappingNote[]): InvoiceClient {
  const person = plainText(joinParts([billing.firstName, billing.lastName], ' '));
  const company = plainText(billing.company);
  const name = person || company || 'Consumidor final';
  const client: InvoiceClient = {
    Name: clipText(name, 75),
    NIF: buyer.nif,
    CountryCode: buyer.countryCode,
  };
  if (company) client.LegalName = clipText(company, 500);
  const street = plainText(joinParts([billing.line1, billing.line2], ', '));
  const city = plainText(billing.city);
  const postcode = billing.postcode.trim();
  const billedCountry = billing.country.trim().toUpperCase();
  // A Portuguese NIF billed to an address abroad: the client's country is PT (the NIF's), so the
  // address keeps its own post code and country in its text, never passing for a Portuguese one.
  const abroad = buyer.countryCode === 'PT' && billedCountry !== '' && billedCountry !== 'PT';
  const address = abroad && street ? joinParts([street, joinParts([plainText(postcode), city], ' '), billedCountry], ', ') : street;
  if (address) client.Address = clipText(address, 200);
  if (city) client.City = clipText(city, 50);
  if (abroad) {
    if (postcode || street) notes.push(info('address-abroad-kept', { country: billedCountry, postcode }));
  } else if (postcode) {
    if (buyer.countryCode === 'PT') {
      const valid = portuguesePostCode(postcode);
      if (valid) client.PostCode = valid;
      else notes.push(warning('postcode-not-portuguese', { postcode }));
    } else {
      client.PostCode = clipText(postcode, 50);
    }
  }
  const phone = billing.phone.trim();
  if (phone) client.PhoneNumber = clipText(phone, 50);
  const email = usableEmail(billing);
  if (email) client.Email = email;
  else if (billing.email.trim()) notes.push(warning('email-unusable', { email: billing.email }));
  if (name.length > 75) notes.push(warning('client-name-shortened', { name: client.Name }));
  return client;
}

/**
 * An invoice to a business buyer carries its seat or domicile (CIVA art. 36(5)(a)): a company with a
 * valid NIF (or EU VAT number) and no billing street is held with the reason, releasable by a
 * person once the address is on the order. A simplified invoice (type S, where lawful) carries only
 * the buyer's NIF and needs none (art. 40(2)).
 */
export function businessAddressHold(buyer: BuyerIdentity, client: InvoiceClient, type: 'T' | 'I' | 'S'): MappingMessage | undefined {
  if (type === 'S' || buyer.kind === 'consumer' || !buyer.isBusiness || buyer.hold) return undefined;
  if (client.Address !== undefined && client.Address.trim() !== '') return undefined;
  return { code: 'business-buyer-address-missing', params: { buyer: client.LegalName ?? client.Name ?? '', nif: buyer.nif, country: buyer.countryCode } };
}
