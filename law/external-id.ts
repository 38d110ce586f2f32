import { MappingSettings } from './mapping-settings';
import { mappingError } from './mapping-errors';

/**
 * ExternalId is the service's duplicate guard (checked with the client data): one id per order and
 * purpose, stable across webhook repeats, so a lost answer comes back as DocumentIsADuplicate.
 */
const MAX_EXTERNAL_ID = 50;

function checked(id: string, orderId: number | string): string {
  if (id.length > MAX_EXTERNAL_ID) {
    throw mappingError(orderId, 'external-id-too-long', { id, max: MAX_EXTERNAL_ID });
  }
  return id;
}

type PrefixSettings = Pick<MappingSettings, 'externalIdPrefix'>;

export function externalIdForOrder(orderId: number | string, settings: PrefixSettings): string {
  return checked(`${settings.externalIdPrefix}${orderId}`, orderId);
}

export function externalIdForRefund(orderId: number | string, refundId: number | string, settings: PrefixSettings): string {
  return checked(`${settings.externalIdPrefix}${orderId}-R${refundId}`, orderId);
}

export function externalIdForWaybill(orderId: number | string, settings: PrefixSettings): string {
  return checked(`${settings.externalIdPrefix}${orderId}-W`, orderId);
}
