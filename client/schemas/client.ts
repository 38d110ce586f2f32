import { z } from 'zod';
import { FIELD_MAX, isEmailAddress, isValidPostCode, isValidTaxId } from '../input-rules';
import { CountryCode, optionalField, requiredText, sized } from './primitives';

/** Optional e-mail text: blank is absent (shops send ""), anything else must look like an address. */
export function optionalEmail(max: number) {
  return optionalField(sized(max).refine(isEmailAddress, { message: 'must be an e-mail address' }));
}

const C = FIELD_MAX.Client;

/** The customer of a document or waybill. */
export const ClientSchema = z
  .object({
    Name: requiredText(C.Name),
    NIF: requiredText(C.NIF),
    CountryCode: CountryCode,
    Address: optionalField(sized(C.Address)),
    City: optionalField(sized(C.City)),
    PostCode: optionalField(sized(C.PostCode)),
    CountryName: optionalField(z.string()),
    PhoneNumber: optionalField(sized(C.PhoneNumber)),
    LegalName: optionalField(sized(C.LegalName)),
    Email: optionalEmail(C.Email),
    IBAN: optionalField(sized(C.IBAN)),
  })
  .superRefine((client, ctx) => {
    // The service checks NIF and PostCode against the country (input-rules.ts, shared with the sandbox).
    if (typeof client.CountryCode !== 'string') return;
    if (typeof client.NIF === 'string' && client.NIF.trim() !== '' && !isValidTaxId(client.CountryCode, client.NIF)) {
      const message =
        client.CountryCode === 'PT'
          ? 'must be a valid Portuguese NIF (9 digits, check digit)'
          : `must be a tax id in the format of ${client.CountryCode}`;
      ctx.addIssue({ code: 'custom', path: ['NIF'], message });
    }
    if (typeof client.PostCode === 'string' && !isValidPostCode(client.CountryCode, client.PostCode)) {
      const message =
        client.CountryCode === 'PT' ? 'must be a Portuguese postal code like 1000-001' : 'must be a postal code (letters, digits, spaces, dashes)';
      ctx.addIssue({ code: 'custom', path: ['PostCode'], message });
    }
  });
export type InvoiceClient = z.infer<typeof ClientSchema>;
