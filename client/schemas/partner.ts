import { z } from 'zod';
import { optionalEmail } from './client';
import { CountryCode, sized } from './primitives';

/** AddPartner body; every field optional as the spec says. */
export const PartnerInformationSchema = z.object({
  CompanyTaxId: sized(20).optional(),
  UserName: sized(75).optional(),
  UserEmail: optionalEmail(75),
  UserPhone: sized(50).optional(),
  CompanyLegalName: sized(50).optional(),
  CompanyAddress: sized(200).optional(),
  CompanyCity: sized(50).optional(),
  CompanyPostCode: sized(50).optional(),
  CompanyCountry: CountryCode.optional(),
});
export type PartnerInformation = z.infer<typeof PartnerInformationSchema>;

/** Query of Client Get and TaxId Validation. */
export const TaxIdQuerySchema = z.object({
  countryCode: CountryCode,
  taxId: z.string().regex(/^[A-Za-z0-9]{1,20}$/, { message: 'must be 1 to 20 letters or digits' }),
});
