import { z } from 'zod';
import { isValidPortugueseNif } from '../nif';
import { CountryCode, PORTUGUESE_POSTCODE, requiredText, sized } from './primitives';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Optional e-mail text: empty is tolerated (shops send ""), anything else must look like an address. */
export function optionalEmail(max: number) {
  return sized(max)
    .refine((value) => value === '' || EMAIL.test(value), { message: 'must be an e-mail address' })
    .optional();
}

/** The customer of a document or waybill. */
export const ClientSchema = z
  .object({
    Name: requiredText(75),
    NIF: requiredText(20),
    CountryCode: CountryCode,
    Address: sized(200).optional(),
    City: sized(50).optional(),
    PostCode: sized(50).optional(),
    CountryName: z.string().optional(),
    PhoneNumber: sized(50).optional(),
    LegalName: sized(500).optional(),
    Email: optionalEmail(255),
    IBAN: sized(300).optional(),
  })
  .superRefine((client, ctx) => {
    // The service checks NIF and PostCode against the country; we can only know Portugal's rules.
    if (client.CountryCode !== 'PT') return;
    if (typeof client.NIF === 'string' && !(/^\d{9}$/.test(client.NIF) && isValidPortugueseNif(client.NIF))) {
      ctx.addIssue({ code: 'custom', path: ['NIF'], message: 'must be a valid Portuguese NIF (9 digits, check digit)' });
    }
    if (typeof client.PostCode === 'string' && client.PostCode !== '' && !PORTUGUESE_POSTCODE.test(client.PostCode)) {
      ctx.addIssue({ code: 'custom', path: ['PostCode'], message: 'must be a Portuguese postal code like 1000-001' });
    }
  });
export type InvoiceClient = z.infer<typeof ClientSchema>;
