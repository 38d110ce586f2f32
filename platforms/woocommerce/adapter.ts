import type { ShopPlatform } from '../shop-platform';
import { checkNifMetaKeys, checkPortugueseRates, checkReadAccess, checkTaxSettings, checkWriteAccess, shopCallProblem } from './doctor/shop-checks';
import { checkWebhooks } from './doctor/webhook-checks';
import { WOO_DOCTOR } from './doctor/woo-doctor-messages';
import { wooWebhookFastPath, wooWebhookRouter } from './webhook-route';
import { WooShop } from './woo-shop';
import { wpAdminOrderUrl } from './admin-links';
import { parseWooOrder, parseWooOrderMeta, parseWooRefund } from './order-schema';
import { saleOfWooOrder, wooAttributes } from './order-to-sale';
import { saleRefundOfWooRefund } from './refund-to-sale-refund';
import { otherSystemDocument } from './other-plugins';
import { wooOrderWithoutOurWrites } from './own-writes';
import { WOO_ADVANCE_PAYMENT_STATUSES, wooAdvancePayment } from './advance-payments';
import { wooOrderWebhooks, wooShopOrder } from './shop-order';
import { wooDeliveryProblemWords, wooWebhookFix } from './webhook-words';
import { wooListingRefusedFix, wooRoundingFix, wooShopRefusedFix } from './shop-words';

/** WooCommerce behind the connector's ports: its REST API as the Shop, its signed order webhooks, its doctor checks. */
export const woocommerce: ShopPlatform = {
  name: 'woocommerce',
  title: 'WooCommerce',
  numbersOrdersApart: false,
  adminOrderUrl: (tenant, orderId) => wpAdminOrderUrl(tenant.shop.url, orderId),
  createShop: (tenant) => new WooShop(tenant.shop),
  webhookFastPath: wooWebhookFastPath,
  webhookRouter: wooWebhookRouter,
  saleOf: (order, mapping) => saleOfWooOrder(parseWooOrder(order), mapping),
  attributesOf: (order) => wooAttributes(parseWooOrderMeta(order)),
  // The same in a webhook's payload and a REST read (one serializer): proves a delivery's carried copy.
  modifiedStamp: wooModifiedStamp,
  withoutOurWrites: wooOrderWithoutOurWrites,
  orderOf: wooShopOrder,
  otherSystemDocument,
  advancePayment: wooAdvancePayment,
  advancePaymentStatuses: WOO_ADVANCE_PAYMENT_STATUSES,
  orderWebhooks: wooOrderWebhooks,
  webhooksOffFix: (lang) => WOO_DOCTOR.say(lang, 'webhooks-off-fix'),
  deliveryProblemWords: wooDeliveryProblemWords,
  webhookFix: wooWebhookFix,
  listingRefusedFix: wooListingRefusedFix,
  roundingFix: wooRoundingFix,
  shopRefusedFix: wooShopRefusedFix,
  shopCallProblem,
  refundOf(refund, sale) {
    const orderId = Number(sale.id);
    return saleRefundOfWooRefund(parseWooRefund(refund, orderId), orderId);
  },
  async doctorChecks(tenant, mapping, publicUrl) {
    const shop = new WooShop(tenant.shop);
    const read = await checkReadAccess(shop, tenant);
    if (!read.readable) return read;
    return {
      readable: true,
      checks: [
        ...read.checks,
        await checkWriteAccess(shop, tenant),
        ...(await checkTaxSettings(shop, tenant)),
        ...(await checkPortugueseRates(shop, tenant, mapping)),
        ...(await checkWebhooks(shop, tenant, publicUrl)),
        await checkNifMetaKeys(shop, tenant, mapping),
      ],
    };
  },
};

/** The order's date_modified_gmt: WooCommerce stamps every save of the order. */
export function wooModifiedStamp(order: unknown): string | undefined {
  const stamp = order !== null && typeof order === 'object' ? (order as { date_modified_gmt?: unknown }).date_modified_gmt : undefined;
  return typeof stamp === 'string' ? stamp : undefined;
}
