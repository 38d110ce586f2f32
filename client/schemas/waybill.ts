import { z } from 'zod';
import { ApiForm, dateDay, FIELD_MAX, isValidPostCode, PERCENTAGE_RANGE, WAYBILL_TYPES } from '../input-rules';
import { ClientSchema } from './client';
import { documentReference, DocumentDescription, hasZeroTaxLine, LinesSchema, TaxExemptionReasonCode } from './document';
import {
  boundedDecimal,
  CountryCode,
  CurrencyCode,
  DateText,
  DateTimeText,
  isToCloseSchema,
  optionalField,
  PositiveDecimal,
  requiredText,
  SendToText,
  sized,
} from './primitives';

const A = FIELD_MAX.Address;
const D = FIELD_MAX.Document;

/** LoadAddress / DestinationAddress; every field required. */
export const AddressSchema = z
  .object({
    AddressDetail: requiredText(A.AddressDetail),
    City: requiredText(A.City),
    PostalCode: requiredText(A.PostalCode),
    CountryCode: CountryCode,
  })
  .superRefine((address, ctx) => {
    if (typeof address.CountryCode !== 'string' || typeof address.PostalCode !== 'string' || address.PostalCode.trim() === '') return;
    if (!isValidPostCode(address.CountryCode, address.PostalCode)) {
      const message =
        address.CountryCode === 'PT' ? 'must be a Portuguese postal code like 1000-001' : 'must be a postal code (letters, digits, spaces, dashes)';
      ctx.addIssue({ code: 'custom', path: ['PostalCode'], message });
    }
  });
export type WaybillAddress = z.infer<typeof AddressSchema>;

/** W waybill, Y delivery note. */
export const WaybillTypeSchema = z.enum(WAYBILL_TYPES, { message: 'must be W (waybill) or Y (delivery note)' });
export type WaybillType = z.infer<typeof WaybillTypeSchema>;

function waybillSchema(form: ApiForm) {
  return z
    .object({
      Type: WaybillTypeSchema,
      Date: DateText,
      Description: optionalField(DocumentDescription),
      Serie: optionalField(sized(D.Serie)),
      TaxExemptionReasonCode: optionalField(TaxExemptionReasonCode),
      Currency: optionalField(CurrencyCode),
      EuroRate: PositiveDecimal.optional(),
      Retention: boundedDecimal(PERCENTAGE_RANGE.min, PERCENTAGE_RANGE.max).optional(),
      ExternalId: optionalField(sized(D.ExternalId)),
      Lines: LinesSchema,
      LoadDateTime: DateTimeText,
      LoadAddress: AddressSchema,
      DestinationAddress: AddressSchema,
      VehicleLicence: optionalField(sized(D.VehicleLicence)),
      // The spec's sample body shows these two inside Waybill although its table omits them.
      DueDate: optionalField(DateText),
      DocumentReference: optionalField(documentReference(form)),
    })
    .superRefine((waybill, ctx) => {
      // "Equal to or later than the waybill date": the load moment may be any time on that day.
      const day = typeof waybill.Date === 'string' ? dateDay(waybill.Date) : undefined;
      if (typeof waybill.LoadDateTime === 'string' && day !== undefined && waybill.LoadDateTime.slice(0, 10) < day) {
        ctx.addIssue({ code: 'custom', path: ['LoadDateTime'], message: 'must not be before the waybill Date' });
      }
      if (hasZeroTaxLine(waybill.Lines) && !waybill.TaxExemptionReasonCode) {
        ctx.addIssue({ code: 'custom', path: ['TaxExemptionReasonCode'], message: 'is required when a line has 0% tax' });
      }
    });
}

export const WaybillSchema = waybillSchema('rest');
export type Waybill = z.infer<typeof WaybillSchema>;

function createWaybillRequestSchema(form: ApiForm) {
  return z.object({
    IsToClose: isToCloseSchema(form),
    SendTo: optionalField(SendToText),
    Client: ClientSchema,
    Waybill: waybillSchema(form),
  });
}

export const CreateWaybillRequestSchema = createWaybillRequestSchema('rest');
export const SoapCreateWaybillRequestSchema = createWaybillRequestSchema('soap');
export type CreateWaybillRequest = z.infer<typeof CreateWaybillRequestSchema>;
export type CreateWaybillRequestInput = z.input<typeof CreateWaybillRequestSchema>;
