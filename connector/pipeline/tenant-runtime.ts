import { MagniFinanceClient, type CallOptions } from '../../client/rest-client';
import type { MappingSettings } from '../../law/mapping-settings';
import type { TenantConfig } from '../config/load-config';
import type { TenantSettings } from '../config/tenant-config';
import { platformOf } from '../../platforms/registry';
import type { Shop } from '../shop/shop';
import type { ShopServices } from '../shop/shop-services';
import { ViesRegistry } from '../vies/vies-registry';
import { EcbRateSource } from '../rates/ecb-rates';
import { CarriedOrders } from '../ingest/carried-orders';

/** What a worker needs for one tenant: its clients and its settings, built once per process. */
export interface TenantRuntime {
  config: TenantConfig;
  invoicing: MagniFinanceClient;
  /** Agency mode sends the partner's token on document calls. */
  documentCallOptions: CallOptions | undefined;
  shop: Shop;
  mapping: MappingSettings;
  /** Asks VIES about buyers' EU VAT numbers when the tenant has a `vies` block. */
  vies: ViesRegistry | undefined;
  /** The ECB's reference rates, when the tenant has an `exchangeRates` block. */
  rates: EcbRateSource | undefined;
  /** The webhook secret before the last reload changed it, still accepted until `until` (server.webhookSecretOverlapMinutes). */
  previousWebhookSecret?: { secret: string; until: number };
  /** The orders this process's webhook route received lately (a worker here composes from them, proven under the lock). */
  carriedOrders?: CarriedOrders;
}

export function buildTenantRuntime(config: TenantConfig, services?: ShopServices): TenantRuntime {
  return {
    config,
    // Retries are off: they live in one layer, BullMQ attempts with backoff, where a lost create
    // answer is caught by the ledger instead of being repeated blindly inside one attempt.
    invoicing: new MagniFinanceClient({
      email: config.invoicing.email,
      token: config.invoicing.token,
      baseUrl: config.invoicing.baseUrl,
      timeoutMs: config.invoicing.timeoutMs,
      retry: false,
      // Every request the workers send was built and checked by the law with the client's own schemas,
      // and is sent in the form they read it (law/order-to-document.ts, refund-to-credit-note.ts,
      // order-to-waybill.ts); parsing it again for the draft and again for the close was the workers'
      // largest cost of their own (issue 29.4). What the workers add is their own: the draft's id, its
      // ExternalId (the law's, with ".d<attempt>") and IsToClose.
      validateLocally: false,
    }),
    documentCallOptions: config.invoicing.partnerToken ? { token: config.invoicing.partnerToken } : undefined,
    shop: platformOf(config).createShop(config, services),
    mapping: mappingSettingsFor(config.settings),
    vies: config.vies ? new ViesRegistry(config.vies) : undefined,
    rates: config.exchangeRates ? new EcbRateSource(config.exchangeRates) : undefined,
    carriedOrders: new CarriedOrders(),
  };
}

const UNPAID_ORDER_STATUSES = ['pending', 'on-hold', 'failed', 'cancelled'] as const;

/** The tenant's top-level document settings win over the mapping block's. */
export function mappingSettingsFor(settings: TenantSettings): MappingSettings {
  const mapping: MappingSettings = { ...settings.mapping };
  if (settings.documentType) mapping.documentType = settings.documentType;
  if (settings.sendTo !== undefined) mapping.sendToCustomer = settings.sendTo;
  if (settings.series) mapping.series = { ...mapping.series, [mapping.documentType]: settings.series };
  // A status the shop owner listed as a trigger is one they chose to invoice, paid or not.
  const unpaidTriggers = UNPAID_ORDER_STATUSES.filter((status) => settings.triggerStatuses.includes(status));
  if (unpaidTriggers.length > 0) mapping.invoiceUnpaidStatuses = [...new Set([...mapping.invoiceUnpaidStatuses, ...unpaidTriggers])];
  return mapping;
}
