import type { DocumentTypeLetter } from './reference-data';

/**
 * Validated input of a document or waybill create, as the sandbox stores it. Decimals are kept as
 * exact decimal text ("12.3456") so state files round-trip without floating point.
 */

export interface ClientData {
  Name: string;
  NIF: string;
  CountryCode: string;
  Address?: string;
  City?: string;
  PostCode?: string;
  CountryName?: string;
  PhoneNumber?: string;
  LegalName?: string;
  Email?: string;
  IBAN?: string;
}

export interface LineData {
  Code: string;
  Description: string;
  UnitPrice: string;
  Quantity: string;
  Unit: string;
  Type: 'S' | 'P';
  TaxValue: string;
  ProductDiscount: string;
  CostCenter?: string;
}

export interface AddressData {
  AddressDetail: string;
  City: string;
  PostalCode: string;
  CountryCode: string;
}

export interface DocumentData {
  Type: DocumentTypeLetter;
  Serie?: string;
  Id?: number;
  Date: string;
  DueDate?: string;
  Description?: string;
  DocumentReference?: string;
  TaxExemptionReasonCode?: string;
  Currency?: string;
  EuroRate?: string;
  Retention?: string;
  ExternalId?: string;
  PurchaseOrder?: string;
  Lines: LineData[];
  /** Waybill (W, Y) only. */
  LoadDateTime?: string;
  LoadAddress?: AddressData;
  DestinationAddress?: AddressData;
  VehicleLicence?: string;
}

export type DocumentKind = 'document' | 'waybill';

export interface CreateInput {
  kind: DocumentKind;
  isToClose: boolean;
  sendTo?: string;
  client: ClientData;
  document: DocumentData;
}
