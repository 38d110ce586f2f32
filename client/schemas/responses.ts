import { z } from 'zod';
import { DecimalCommaText } from './primitives';

/**
 * Response schemas. Every one is loose (extra fields kept) and lenient about null versus absent:
 * the service's samples are inconsistent there, and an unknown extra field must never break a caller.
 */

const optionalText = z.string().nullish();
const numberOrText = z.union([z.number(), z.string()]).nullish();
/** The field types the answers' schemas share, by which the hand proofs (common-answers.ts) find each field's reading. */
export const SHARED_FIELD_TYPES = { optionalText, numberOrText } as const;

export const ErrorValueSchema = z.looseObject({ Value: z.number().int(), Name: z.string() });
export type ErrorValue = z.infer<typeof ErrorValueSchema>;

export const ValidationErrorSchema = z.looseObject({
  Type: z.string(),
  Field: optionalText,
  // An int in the write endpoints, documented as a string on some read endpoints.
  ElementNumber: z.union([z.number().int(), z.string()]).nullish(),
  Value: optionalText,
  Detail: optionalText,
});
export type ServiceValidationErrorItem = z.infer<typeof ValidationErrorSchema>;

/** The common envelope of every REST response. */
export const EnvelopeSchema = z
  .looseObject({
    RequestId: optionalText,
    Type: z.union([z.literal(0), z.literal(1)]),
    Object: z.unknown().optional(),
    ErrorValue: ErrorValueSchema.nullish(),
    ErrorHumanReadable: optionalText,
    ValidationErrors: z.array(ValidationErrorSchema).nullish(),
    IsSuccess: z.boolean().optional(),
    IsError: z.boolean().optional(),
  })
  .superRefine((envelope, ctx) => {
    if (envelope.IsSuccess !== undefined && envelope.IsSuccess !== (envelope.Type === 0)) {
      ctx.addIssue({ code: 'custom', path: ['IsSuccess'], message: 'disagrees with Type' });
    }
    if (envelope.IsError !== undefined && envelope.IsError !== (envelope.Type === 1)) {
      ctx.addIssue({ code: 'custom', path: ['IsError'], message: 'disagrees with Type' });
    }
  });
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** Object of Create Document. */
export const CreateDocumentResultSchema = z.looseObject({
  DocumentId: z.number().int(),
  ErrorMessage: optionalText,
});

/** Object of Create Waybill (DocumentNumber documented, absent in the spec's example). */
export const CreateWaybillResultSchema = z.looseObject({
  DocumentId: z.number().int(),
  DocumentNumber: optionalText,
  ErrorMessage: optionalText,
});

/** Failed creates may still carry Object.ErrorMessage. */
export const ErrorObjectSchema = z.looseObject({ ErrorMessage: optionalText }).nullish();

export const ResponseAddressSchema = z.looseObject({
  AddressDetail: optionalText,
  City: optionalText,
  PostalCode: optionalText,
  CountryCode: optionalText,
});

export const ResponseLineSchema = z.looseObject({
  Code: optionalText,
  Description: optionalText,
  UnitPrice: numberOrText,
  Quantity: numberOrText,
  Unit: optionalText,
  Type: optionalText,
  TaxValue: numberOrText,
  ProductDiscount: numberOrText,
  CostCenter: optionalText,
});

export const DetailsDocumentSchema = z.looseObject({
  DocumentStatusId: optionalText,
  DocumentStatus: optionalText,
  LoadDateTime: optionalText,
  LoadAddress: ResponseAddressSchema.nullish(),
  DestinationAddress: ResponseAddressSchema.nullish(),
  VehicleLicence: optionalText,
  TotalCredit: numberOrText,
  TotalDebit: numberOrText,
  Date: optionalText,
  DueDate: optionalText,
  Description: optionalText,
  Type: optionalText,
  Serie: optionalText,
  Id: z.number().int().nullish(),
  TaxExemptionReasonCode: optionalText,
  DocumentReference: optionalText,
  Currency: optionalText,
  Retention: numberOrText,
  EuroRate: numberOrText,
  ExternalId: optionalText,
  Lines: z.array(ResponseLineSchema).nullish(),
  PurchaseOrder: optionalText,
  ATCode: optionalText,
});
export type DetailsDocument = z.infer<typeof DetailsDocumentSchema>;

export const DetailsReceiverSchema = z.looseObject({
  TaxId: numberOrText,
  Name: optionalText,
  Address: optionalText,
  City: optionalText,
  PostCode: optionalText,
  CountryCode: optionalText,
  PhoneNumber: optionalText,
  CountryName: optionalText,
  CompanyLegalName: optionalText,
  LegalName: optionalText,
  Email: optionalText,
  IBAN: optionalText,
});
export type DetailsReceiver = z.infer<typeof DetailsReceiverSchema>;

/** The number/text pairs of Details.Totals. */
export const TOTALS_FIELDS = [
  'Amount',
  'WithoutTax',
  'Tax',
  'Discount',
  'Retention',
  'AmountBeforeDiscountAndTax',
  'TotalAmountWithExchangeRate',
  'TotalCreditAmount',
  'TotalDebitAmount',
] as const;
export type TotalsField = (typeof TOTALS_FIELDS)[number];

export const DetailsTotalsSchema = z.looseObject({
  Amount: z.number().nullish(),
  AmountText: DecimalCommaText.nullish(),
  WithoutTax: z.number().nullish(),
  WithoutTaxText: DecimalCommaText.nullish(),
  Tax: z.number().nullish(),
  TaxText: DecimalCommaText.nullish(),
  Discount: z.number().nullish(),
  DiscountText: DecimalCommaText.nullish(),
  Retention: z.number().nullish(),
  RetentionText: DecimalCommaText.nullish(),
  AmountBeforeDiscountAndTax: z.number().nullish(),
  AmountBeforeDiscountAndTaxText: DecimalCommaText.nullish(),
  TotalAmountWithExchangeRate: z.number().nullish(),
  TotalAmountWithExchangeRateText: DecimalCommaText.nullish(),
  TotalCreditAmount: z.number().nullish(),
  TotalCreditAmountText: DecimalCommaText.nullish(),
  TotalDebitAmount: z.number().nullish(),
  TotalDebitAmountText: DecimalCommaText.nullish(),
});
export type DetailsTotals = z.infer<typeof DetailsTotalsSchema>;

export const PaymentStatusSchema = z.enum(['NoPayment', 'Incomplete', 'Complete']);
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/** Object of Get Document and Get Document Property. */
export const DocumentGetOutSchema = z.looseObject({
  DocumentNumber: optionalText,
  DownloadUrl: optionalText,
  PaymentStatus: PaymentStatusSchema.nullish(),
  ErrorMessage: optionalText,
  TotalAmount: DecimalCommaText.nullish(),
  UnpaidAmount: DecimalCommaText.nullish(),
  Details: z
    .looseObject({
      Document: DetailsDocumentSchema.nullish(),
      Receiver: DetailsReceiverSchema.nullish(),
      Totals: DetailsTotalsSchema.nullish(),
    })
    .nullish(),
});
export type DocumentGetOut = z.infer<typeof DocumentGetOutSchema>;

/** Object of Client Get: all strings. */
export const ClientDataSchema = z.looseObject({
  NIF: numberOrText,
  Name: optionalText,
  Address: optionalText,
  City: optionalText,
  PostCode: optionalText,
  CountryCode: optionalText,
  PhoneNumber: optionalText,
  CountryName: optionalText,
  LegalName: optionalText,
  CompanyLegalName: optionalText,
  Email: optionalText,
  IBAN: optionalText,
});
export type ClientData = z.infer<typeof ClientDataSchema>;

/**
 * One entry of Get Partner Access Tokens. The spec does not show the shape, so the likely names
 * are accepted and normalised by the client (`PartnerAccessToken`).
 */
export const PartnerAccessTokenItemSchema = z.looseObject({
  Token: optionalText,
  AccessToken: optionalText,
  PartnerToken: optionalText,
  TaxId: numberOrText,
  CompanyTaxId: numberOrText,
  Name: optionalText,
  CompanyName: optionalText,
  Email: optionalText,
  UserEmail: optionalText,
  Description: optionalText,
});
export type PartnerAccessTokenItem = z.infer<typeof PartnerAccessTokenItemSchema>;
