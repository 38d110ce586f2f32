import { orderHeadSchema, ShopifyOrderWebhookSchema, ShopifyRefundWebhookSchema } from '../../../platforms/shopify/order-summary';
import { parseShopifyOrder } from '../../../platforms/shopify/order-query';
import { restOrderPayload } from '../../support/fake-shopify';
import { TAXES_INCLUDED } from './fixtures/orders';

/**
 * Shopify ids above 2^53 - 1: the connector keeps order ids as numbers, so one it cannot keep exactly
 * is refused at the boundary with a message saying why, never rounded to another order's number.
 */

const ABOVE = '9007199254740993'; // 2^53 + 1: JSON.parse and Number() both round it to 2^53
const TOO_LARGE = /above 2\^53 - 1/;

function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return (result.error?.issues ?? []).map((issue) => issue.message).join('; ');
}

describe('Shopify ids the connector cannot keep exactly', () => {
  it('refuses an orders/* body whose id is above 2^53 - 1, however JSON.parse rounded it', () => {
    const body = JSON.stringify(restOrderPayload(TAXES_INCLUDED)).replace(`"id":${String(TAXES_INCLUDED.legacyResourceId)}`, `"id":${ABOVE}`);
    const result = ShopifyOrderWebhookSchema.safeParse(JSON.parse(body));
    expect(result.success).toBe(false);
    expect(messagesOf(result)).toMatch(TOO_LARGE);
  });

  it('takes the largest exact id and today\'s ids as they are', () => {
    const payload = restOrderPayload(TAXES_INCLUDED);
    expect(ShopifyOrderWebhookSchema.parse(payload).id).toBe(5962412736508);
    expect(ShopifyOrderWebhookSchema.parse({ ...payload, id: Number.MAX_SAFE_INTEGER }).id).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a refunds/create body for such an order or refund', () => {
    expect(messagesOf(ShopifyRefundWebhookSchema.safeParse({ id: 1, order_id: Number(ABOVE) }))).toMatch(TOO_LARGE);
    expect(messagesOf(ShopifyRefundWebhookSchema.safeParse({ id: Number(ABOVE), order_id: 1 }))).toMatch(TOO_LARGE);
  });

  it('refuses a listed order (the sweep, the console) whose legacyResourceId or refund id is too large', () => {
    const head = {
      legacyResourceId: ABOVE,
      name: '#1',
      displayFinancialStatus: 'PAID',
      cancelledAt: null,
      test: false,
      currencyCode: 'EUR',
      createdAt: '2026-11-20T10:15:00Z',
      processedAt: '2026-11-20T10:15:00Z',
      updatedAt: '2026-11-20T10:15:00Z',
      totalPriceSet: { shopMoney: { amount: '1.00', currencyCode: 'EUR' }, presentmentMoney: { amount: '1.00', currencyCode: 'EUR' } },
      refunds: [],
      metafields: { nodes: [] },
      tags: [],
      customAttributes: [],
      billingAddress: null,
    };
    expect(messagesOf(orderHeadSchema.safeParse(head))).toMatch(TOO_LARGE);
    const refund = { id: `gid://shopify/Refund/${ABOVE}`, totalRefundedSet: head.totalPriceSet };
    expect(messagesOf(orderHeadSchema.safeParse({ ...head, legacyResourceId: '42', refunds: [refund] }))).toMatch(TOO_LARGE);
    expect(orderHeadSchema.safeParse({ ...head, legacyResourceId: '42' }).success).toBe(true);
  });

  it('refuses the worker\'s read of such an order with a mapping error naming the field', () => {
    expect(() => parseShopifyOrder({ ...structuredClone(TAXES_INCLUDED), legacyResourceId: ABOVE })).toThrow(/legacyResourceId/);
  });
});
