import { z } from 'zod';
import { ClientSchema } from './client';
import { DocumentDescription, hasZeroTaxLine, LinesSchema, TaxExemptionReasonCode } from './document';
import {
  boundedDecimal,
  CountryCode,
  CurrencyCode,
  DateText,
  DateTimeText,
  PORTUGUESE_POSTCODE,
  PositiveDecimal,
  requiredText,
  SendToText,
  sized,
} from './primitives';

/** LoadAddress / DestinationAddress; every field required. */
export const AddressSchema = z
  .object({
    AddressDetail: requiredText(100),
    City: requiredText(50),
    PostalCode: requiredText(20),
    CountryCode: CountryCode,
  })
  .superRefine((address, ctx) => {
    if (address.CountryCode === 'PT' && typeof address.PostalCode === 'string' && !PORTUGUESE_POSTCODE.test(address.PostalCode)) {
      ctx.addIssue({ code: 'custom', path: ['PostalCode'], message: 'must be a Portuguese postal code like 1000-001' });
    }
  });
export type WaybillAddress = z.infer<typeof AddressSchema>;

/** W waybill, Y delivery note. */
export const WaybillTypeSchema = z.enum(['W', 'Y'], { message: 'must be W (waybill) or Y (delivery note)' });
export type WaybillType = z.infer<typeof WaybillTypeSchema>;

export const WaybillSchema = z
  .object({
    Type: WaybillTypeSchema,
    Date: DateText,
    Description: DocumentDescription.optional(),
    Serie: sized(30).optional(),
    TaxExemptionReasonCode: TaxExemptionReasonCode.optional(),
    Currency: CurrencyCode.optional(),
    EuroRate: PositiveDecimal.optional(),
    Retention: boundedDecimal(0, 100).optional(),
    ExternalId: sized(50).optional(),
    Lines: LinesSchema,
    LoadDateTime: DateTimeText,
    LoadAddress: AddressSchema,
    DestinationAddress: AddressSchema,
    VehicleLicence: sized(30).optional(),
    // The spec's sample body shows these two inside Waybill although its table omits them.
    DueDate: DateText.optional(),
    DocumentReference: sized(50).optional(),
  })
  .superRefine((waybill, ctx) => {
    // "Equal to or later than the waybill date": the load moment may be any time on that day.
    if (
      typeof waybill.LoadDateTime === 'string' &&
      typeof waybill.Date === 'string' &&
      waybill.LoadDateTime.slice(0, 10) < waybill.Date
    ) {
      ctx.addIssue({ code: 'custom', path: ['LoadDateTime'], message: 'must not be before the waybill Date' });
    }
    if (hasZeroTaxLine(waybill.Lines) && !waybill.TaxExemptionReasonCode) {
      ctx.addIssue({ code: 'custom', path: ['TaxExemptionReasonCode'], message: 'is required when a line has 0% tax' });
    }
  });
export type Waybill = z.infer<typeof WaybillSchema>;

export const CreateWaybillRequestSchema = z.object({
  IsToClose: z.boolean({ message: 'must be true or false' }),
  SendTo: SendToText.optional(),
  Client: ClientSchema,
  Waybill: WaybillSchema,
});
export type CreateWaybillRequest = z.infer<typeof CreateWaybillRequestSchema>;
