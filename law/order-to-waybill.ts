import { CreateWaybillRequest, CreateWaybillRequestSchema, Waybill, WaybillAddress } from '../client/schemas/waybill';
import { PORTUGUESE_POSTCODE } from '../client/schemas/primitives';
import { resolveBuyer } from './buyer-identity';
import { clientFromBilling } from './document-client';
import { currencyFor, exemptionContext } from './document-rules';
import { exemptionCodeFor } from './exemption-rules';
import { externalIdForWaybill } from './external-id';
import { solveLine } from './line-plan';
import { info, MappingNote, mappingError, refusedFields } from './mapping-errors';
import { MappingSettings, MappingSettingsInput } from './mapping-settings';
import { parseWooOrder, WooAddress, WooOrder } from '../platforms/woocommerce/order-schema';
import { currencyFields, settingsFrom, WooOrderInput } from './order-to-document';
import { productLines } from './order-lines';
import { localDateTime } from './shop-date';
import { resolveTaxRates } from './tax-rates';
import { clipText, joinParts, plainText } from './text';

export interface OrderWaybill {
  request: CreateWaybillRequest;
  notes: MappingNote[];
}

function postalCode(order: WooOrder, text: string, country: string): string {
  const compact = text.replace(/\s+/g, '');
  if (country === 'PT') {
    if (PORTUGUESE_POSTCODE.test(compact)) return compact;
    if (/^\d{7}$/.test(compact)) return `${compact.slice(0, 4)}-${compact.slice(4)}`;
    throw mappingError(order.id, 'waybill-postcode-not-portuguese', { postcode: text });
  }
  if (!compact) throw mappingError(order.id, 'waybill-no-postcode', {});
  return clipText(compact, 20);
}

/** Where the goods go: the shipping address, or billing when the order has none. */
function destination(order: WooOrder, settings: MappingSettings, notes: MappingNote[]): WaybillAddress {
  const shipping = order.shipping;
  const useShipping = shipping !== undefined && shipping.address_1.trim() !== '';
  if (!useShipping) notes.push(info('waybill-billing-address', {}));
  const address: WooAddress = useShipping ? shipping : order.billing;
  const country = address.country.trim().toUpperCase() || settings.defaultCountry;
  const detail = plainText(joinParts([address.address_1, address.address_2], ', '));
  const city = plainText(address.city);
  if (!detail || !city) throw mappingError(order.id, 'waybill-no-address', {});
  return {
    AddressDetail: clipText(detail, 100),
    City: clipText(city, 50),
    PostalCode: postalCode(order, address.postcode, country),
    CountryCode: country,
  };
}

/**
 * An order's goods as a waybill (W) or delivery note (Y): product lines only (shipping and fees do
 * not travel), loaded at the shop's address `leadTimeMinutes` after `now`, in the shop's zone.
 */
export function waybillForOrder(orderInput: WooOrderInput, settingsInput: MappingSettingsInput | MappingSettings | undefined, now: Date): OrderWaybill {
  const order = parseWooOrder(orderInput);
  const settings = settingsFrom(settingsInput);
  const notes: MappingNote[] = [];
  const load = settings.waybill.loadAddress;
  if (!load) throw mappingError(order.id, 'waybill-no-load-address', {});
  const buyer = resolveBuyer(order, settings, notes);
  const client = clientFromBilling(order.billing, buyer, notes);
  const currency = currencyFor(order, settings, notes);
  const rates = resolveTaxRates(order, notes);
  const planned = productLines(order, rates, settings, notes).filter((line) => line.type === 'P');
  if (planned.length === 0) throw mappingError(order.id, 'waybill-no-goods', {});
  const exemptionCode = exemptionCodeFor(planned, exemptionContext(order, buyer, settings), notes);
  const today = localDateTime(now, settings.shopTimeZone);
  const loading = localDateTime(new Date(now.getTime() + settings.waybill.leadTimeMinutes * 60_000), settings.shopTimeZone);
  const waybill: Waybill = {
    Type: settings.waybill.type,
    Date: today.date,
    Description: `Encomenda #${order.number ?? order.id}`,
    ExternalId: externalIdForWaybill(order.id, settings),
    ...currencyFields(currency),
    Lines: planned.map(solveLine),
    LoadDateTime: `${loading.date}T${loading.time}`,
    LoadAddress: {
      AddressDetail: load.addressDetail,
      City: load.city,
      PostalCode: load.postalCode,
      CountryCode: load.countryCode,
    },
    DestinationAddress: destination(order, settings, notes),
  };
  const serie = settings.series[settings.waybill.type];
  if (serie) waybill.Serie = serie;
  if (exemptionCode) waybill.TaxExemptionReasonCode = exemptionCode;
  if (settings.waybill.vehicleLicence) waybill.VehicleLicence = settings.waybill.vehicleLicence;
  const request: CreateWaybillRequest = { IsToClose: settings.closeDocuments, Client: client, Waybill: waybill };
  const result = CreateWaybillRequestSchema.safeParse(request);
  if (!result.success) {
    throw mappingError(order.id, 'waybill-invalid', refusedFields(result.error));
  }
  return { request, notes };
}
