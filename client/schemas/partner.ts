import { z } from 'zod';
import { FIELD_MAX, isValidTaxId } from '../input-rules';
import { optionalEmail } from './client';
import { CountryCode, optionalField, requiredText, sized } from './primitives';

const P = FIELD_MAX.Partner;

/**
 * AddPartner body. The docs mark every field optional, but a partnership is the company's tax id:
 * without CompanyTaxId nothing can be registered, so it is required here as in the sandbox.
 * CompanyCountry (default PT) decides how the tax id is checked.
 */
export const PartnerInformationSchema = z
  .object({
    CompanyTaxId: requiredText(P.CompanyTaxId),
    UserName: optionalField(sized(P.UserName)),
    UserEmail: optionalEmail(P.UserEmail),
    UserPhone: optionalField(sized(P.UserPhone)),
    CompanyLegalName: optionalField(sized(P.CompanyLegalName)),
    CompanyAddress: optionalField(sized(P.CompanyAddress)),
    CompanyCity: optionalField(sized(P.CompanyCity)),
    CompanyPostCode: optionalField(sized(P.CompanyPostCode)),
    CompanyCountry: optionalField(CountryCode),
  })
  .superRefine((info, ctx) => {
    if (typeof info.CompanyTaxId !== 'string' || info.CompanyTaxId.trim() === '' || info.CompanyTaxId.length > P.CompanyTaxId) return;
    if (!isValidTaxId(info.CompanyCountry ?? 'PT', info.CompanyTaxId)) {
      ctx.addIssue({ code: 'custom', path: ['CompanyTaxId'], message: 'must be a valid tax id of CompanyCountry (PT when not given)' });
    }
  });
export type PartnerInformation = z.infer<typeof PartnerInformationSchema>;

/** Query of Client Get and TaxId Validation. */
export const TaxIdQuerySchema = z.object({
  countryCode: CountryCode,
  taxId: z.string().regex(/^[A-Za-z0-9]{1,20}$/, { message: 'must be 1 to 20 letters or digits' }),
});
