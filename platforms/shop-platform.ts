import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Router } from 'express';
import type { TenantConfig } from '../connector/config/load-config';
import type { Check, Words } from '../connector/doctor/check';
import type { Shop, ShopWebhook } from '../connector/shop/shop';
import type { OrderAttribute, OrderSummary } from '../connector/shop/order-summary';
import type { ShopServices } from '../connector/shop/shop-services';
import type { WebhookRouteDeps } from '../connector/ingest/webhook-route-deps';
import type { AdvancePayment } from '../law/advance-payment';
import type { MappingSettings } from '../law/mapping-settings';
import type { Sale, SaleAttribute, SaleRefund } from '../law/sale';
import type { Lang } from '../messages/lang';
import type { DeliveryProblem } from '../connector/words';

/** An order webhook the sweep found not delivering to this connector: one of the shop's, not active, or a topic none delivers. */
export type WebhookFinding = { state: 'inactive'; id: number; topic: string } | { state: 'missing'; topic: string };

/** A document another invoicing system has on an order: which system, under which key, and the document as a person reads it. */
export interface OtherSystemDocument {
  system: string;
  key: string;
  value: string;
}

/**
 * What one shop platform brings to the connector: its Shop, the routes its deliveries arrive on,
 * and the doctor's checks of a shop on it. One per folder under platforms/; the registry lists them.
 */
export interface ShopPlatform {
  /** As a tenant names it in the tenants file (`platform:`). */
  name: NonNullable<TenantConfig['platform']>;
  /** The platform's product name as shop owners know it ("WooCommerce"), for links such as "open the order in …". */
  title: string;
  /**
   * The shop shows its orders under numbers that are not their ids (Shopify's "#1001" of order
   * 5962412736508): the console asks the shop for them to name the orders of its lists. WooCommerce's
   * number is its id unless a plugin numbers orders (then the order's own page says it).
   */
  numbersOrdersApart: boolean;
  /** Where a person opens one order in the platform's own admin. */
  adminOrderUrl(tenant: TenantConfig, orderId: number): string;
  /** `services`: where the running connector keeps what the shop handed over at install time (absent in a command without Redis). */
  createShop(tenant: TenantConfig, services?: ShopServices): Shop;
  /**
   * The plain-Node fast path for the hot delivery URL: true when it answered the request, false to
   * let the Express app handle it.
   */
  webhookFastPath(deps: WebhookRouteDeps): (req: IncomingMessage, res: ServerResponse) => boolean;
  webhookRouter(deps: WebhookRouteDeps): Router;
  /**
   * The platform's order, as its Shop reads it or its webhooks deliver it, as the neutral sale the
   * law reads (law/sale.ts); throws an OrderMappingError naming the fields when the payload cannot be
   * read. `mapping` says where the shop keeps what the law asks (the meta keys of the buyer's NIF);
   * `tenant`, how the platform's own settings read it (a Shopify store's currency policy and NIF sources).
   */
  saleOf(order: unknown, mapping: MappingSettings, tenant?: TenantConfig): Sale;
  /**
   * Only the order's attributes (its meta), read more cheaply than `saleOf` when the platform can,
   * with other invoicing systems' marks where the platform keeps them apart (Shopify's tags and note):
   * what the worker checks under the lock (our issuing marker, another system's document).
   */
  attributesOf?(order: unknown): SaleAttribute[];
  /**
   * The order's modification stamp, as a delivery's copy and the Shop's read both carry it
   * (WooCommerce's date_modified_gmt): with the order's digest and our own attributes it proves, under
   * the order's lock, that the copy a delivery carried (ingest/carried-orders.ts) is still the shop's
   * (pipeline/issue-step.ts). Absent for a platform whose deliveries carry no copy to prove (Shopify:
   * its webhook's body is the REST order, its read the GraphQL one; the worker always reads).
   */
  modifiedStamp?(order: unknown): string | undefined;
  /**
   * The order, as its Shop reads it or its webhooks deliver it, without what this connector's own
   * writes change there (our attributes, the modification stamps, the links): what orderDigest
   * hashes (connector/shop/order-meta.ts), so our own echo is told from a real change. A shallow copy
   * (the lines below are serialized by JSON.stringify's native path). Absent: the order is digested
   * whole (Shopify: its deliveries are never compared to the marker's digest).
   */
  withoutOurWrites?: (order: unknown) => unknown;
  /** The platform's order, as its Shop reads it (getOrder), in the port's words (the review, a person's retry); throws an OrderMappingError naming the fields when the payload cannot be read. */
  orderOf(order: unknown): OrderSummary;
  /**
   * Another invoicing system's document on the order: the marks the platform's other invoicing apps
   * leave in its meta, and the tenant's own keys (`extraKeys`, settings.otherSystemMetaKeys).
   */
  otherSystemDocument(attributes: readonly OrderAttribute[], extraKeys: readonly string[]): OtherSystemDocument | undefined;
  /**
   * A deposit or pre-order the platform's plugins keep the order in before the supply (their statuses
   * and meta), in the law's words (law/advance-payment.ts); undefined for any other order, or when
   * the platform has no such plugins.
   */
  advancePayment?(order: Pick<OrderSummary, 'status' | 'attributes' | 'paidAt' | 'outstanding'>): AdvancePayment | undefined;
  /**
   * The statuses those orders are kept in (a plugin's own, or the platform's "paid in part"): the dry
   * run and the sweep list them beside the trigger statuses, so an advance payment is reported even
   * when its delivery was lost. A shop that has no such status (the plugin is not installed) refuses
   * the listing, which is no problem.
   */
  advancePaymentStatuses?: readonly string[];
  /**
   * Of the shop's webhooks (Shop.listWebhooks), the order webhooks that deliver to this connector
   * for the tenant (any status), and the topics the connector needs that no active one delivers:
   * judged by delivery URL, as the doctor does, so another integration's webhooks are not ours.
   */
  orderWebhooks(hooks: readonly ShopWebhook[], publicUrl: string, tenantId: string): { ours: ShopWebhook[]; missingTopics: string[] };
  /**
   * Where a person turns the shop's order webhooks back on, in the platform's words (the sweep's log
   * when some stopped delivering); absent for a platform whose subscriptions the connector re-creates
   * itself (Shop.ensureWebhooks).
   */
  webhooksOffFix?(lang: Lang): string;
  /**
   * A delivery the webhook route refused (ingest/webhook-health.ts's codes), in the platform's words:
   * its likely cause and the fix, with the platform's own screens and settings (the console's webhook
   * health and the alerts), so a tenant never reads another platform's.
   */
  deliveryProblemWords(lang: Lang, reason: DeliveryProblem): { cause: string; fix: string };
  /** What to do about an order webhook the sweep found not delivering (the alerts), in the platform's words. */
  webhookFix(lang: Lang, finding: WebhookFinding): string;
  /**
   * The shop refuses the connector's credentials (401/403), in the platform's own words with the fix,
   * for the console's banners and pages; absent: the words of a WooCommerce REST key.
   */
  refusedWords?(lang: Lang, tenant: TenantConfig): string;
  /**
   * What to check when the shop refuses the sweep's listing of its orders (401/403, the credentials),
   * in the platform's words, for the sweep's report (no full stop: the report ends the sentence).
   */
  listingRefusedFix(lang: Lang, tenant: TenantConfig): string;
  /**
   * What the shop can do about the cent its total differs from the invoice's by (it rounded the tax
   * per line, the invoice rounds it once per rate): the platform's own tax setting, if it has one.
   */
  roundingFix(lang: Lang): string;
  /**
   * What to check when the shop refused one of the connector's requests for an order (its
   * credentials and their permissions), in the platform's words, for the order's problem (no full
   * stop: the problem goes on with the button to press).
   */
  shopRefusedFix(lang: Lang, tenantId: string): string;
  /**
   * An order status of the platform in the reader's words, as the platform itself names it (its
   * catalogue; a status it does not know as its slug); absent: WooCommerce's statuses.
   */
  statusLabel?(lang: Lang, status: string): string;
  /** A failed call to the shop (a ShopRequestError, or anything else) in a person's words, with the fix: for the doctor. */
  shopCallProblem(error: unknown, tenant: TenantConfig): { detail: Words; fix: Words };
  /** One of the sale's refunds, as the platform gives it, as the neutral refund. */
  refundOf(refund: unknown, sale: Sale): SaleRefund;
  /** The platform's checks of a tenant's shop (keys, settings, webhooks); `readable` false when the shop cannot be read at all. */
  doctorChecks(tenant: TenantConfig, mapping: MappingSettings, publicUrl: string, services?: ShopServices): Promise<{ readable: boolean; checks: Check[] }>;
}
