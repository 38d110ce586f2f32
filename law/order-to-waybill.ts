import { CreateWaybillRequest, CreateWaybillRequestSchema, Waybill, WaybillAddress } from '../client/schemas/waybill';
import { PORTUGUESE_POSTCODE } from '../client/schemas/primitives';
import { resolveBuyer } from './buyer-identity';
import { clientFromBilling } from './document-client';
import { currencyFor, exemptionContext } from './document-rules';
import { exemptionCodeFor } from './exemption-rules';
import { externalIdForWaybill } from './external-id';
import { solveLine } from './line-plan';
import { info, MappingNote, mappingError, noteNamingPlatform, refusedFields } from './mapping-errors';
import { MappingSettings, MappingSettingsInput } from './mapping-settings';
import { currencyFields, settingsFrom } from './order-to-document';
import { saleNumber, saleRef, type Sale, type SaleAddress } from './sale';
import { admitSale } from './sale-schema';
import { productLines } from './order-lines';
import { localDateTime } from './shop-date';
import { resolveTaxRates } from './tax-rates';
import { clipText, joinParts, plainText } from './text';

export interface OrderWaybill {
  request: CreateWaybillRequest;
  notes: MappingNote[];
}

function postalCode(sale: Sale, text: string, country: string): string {
  const compact = text.replace(/\s+/g, '');
  if (country === 'PT') {
    if (PORTUGUESE_POSTCODE.test(compact)) return compact;
    if (/^\d{7}$/.test(compact)) return `${compact.slice(0, 4)}-${compact.slice(4)}`;
    throw mappingError(saleRef(sale), 'waybill-postcode-not-portuguese', { postcode: text });
  }
  if (!compact) throw mappingError(saleRef(sale), 'waybill-no-postcode', {});
  return clipText(compact, 20);
}

/** Where the goods go: the shipping address, or billing when the sale has none. */
function destination(sale: Sale, settings: MappingSettings, notes: MappingNote[]): WaybillAddress {
  const shipping = sale.shipping;
  const useShipping = shipping !== undefined && shipping.line1.trim() !== '';
  if (!useShipping) notes.push(info('waybill-billing-address', {}));
  const address: SaleAddress = useShipping ? shipping : sale.billing;
  const country = address.country.trim().toUpperCase() || settings.defaultCountry;
  const detail = plainText(joinParts([address.line1, address.line2], ', '));
  const city = plainText(address.city);
  if (!detail || !city) throw mappingError(saleRef(sale), 'waybill-no-address', {});
  return {
    AddressDetail: clipText(detail, 100),
    City: clipText(city, 50),
    PostalCode: postalCode(sale, address.postcode, country),
    CountryCode: country,
  };
}

/**
 * A sale's goods as a waybill (W) or delivery note (Y): product lines only (shipping and fees do
 * not travel), loaded at the shop's address `leadTimeMinutes` after `now`, in the shop's zone.
 */
export function waybillForSale(sale: Sale, settingsInput: MappingSettingsInput | MappingSettings | undefined, now: Date): OrderWaybill {
  admitSale(sale);
  const settings = settingsFrom(settingsInput);
  const notes: MappingNote[] = [];
  const load = settings.waybill.loadAddress;
  if (!load) throw mappingError(saleRef(sale), 'waybill-no-load-address', {});
  const buyer = resolveBuyer(sale, settings, notes);
  const client = clientFromBilling(sale.billing, buyer, notes);
  const currency = currencyFor(sale, settings, notes);
  const rates = resolveTaxRates(sale, notes);
  const planned = productLines(sale, rates, settings, notes).filter((line) => line.type === 'P');
  if (planned.length === 0) throw mappingError(saleRef(sale), 'waybill-no-goods', {});
  const exemptionCode = exemptionCodeFor(planned, exemptionContext(sale, buyer, settings), notes);
  const today = localDateTime(now, settings.shopTimeZone);
  const loading = localDateTime(new Date(now.getTime() + settings.waybill.leadTimeMinutes * 60_000), settings.shopTimeZone);
  const waybill: Waybill = {
    Type: settings.waybill.type,
    Date: today.date,
    Description: `Encomenda #${saleNumber(sale)}`,
    ExternalId: externalIdForWaybill(saleRef(sale), settings),
    ...currencyFields(currency),
    Lines: planned.map(solveLine),
    LoadDateTime: `${loading.date}T${loading.time}`,
    LoadAddress: {
      AddressDetail: load.addressDetail,
      City: load.city,
      PostalCode: load.postalCode,
      CountryCode: load.countryCode,
    },
    DestinationAddress: destination(sale, settings, notes),
  };
  const serie = settings.series[settings.waybill.type];
  if (serie) waybill.Serie = serie;
  if (exemptionCode) waybill.TaxExemptionReasonCode = exemptionCode;
  if (settings.waybill.vehicleLicence) waybill.VehicleLicence = settings.waybill.vehicleLicence;
  const request: CreateWaybillRequest = { IsToClose: settings.closeDocuments, Client: client, Waybill: waybill };
  const result = CreateWaybillRequestSchema.safeParse(request);
  if (!result.success) {
    throw mappingError(saleRef(sale), 'waybill-invalid', refusedFields(result.error));
  }
  // As the client's schema reads it (the form the service is sent): callers need not check it again.
  return { request: result.data, notes: notes.map((note) => noteNamingPlatform(note, sale.platformTitle)) };
}
