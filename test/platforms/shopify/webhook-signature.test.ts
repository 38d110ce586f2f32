import { createHmac } from 'node:crypto';
import { statusOfRefusal, verifyShopifyWebhook } from '../../../platforms/shopify/webhook-signature';
import { FakeShopify, restOrderPayload, type FakeDelivery } from '../../support/fake-shopify';
import { TAXES_INCLUDED } from './fixtures/orders';

/** Verification over the raw body, with deliveries built and signed by the fake store. */

const shop = new FakeShopify({ clientSecret: 'shpss_current' });
const delivery: FakeDelivery = {
  webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
  eventId: '98880550-7158-44d4-b7cd-2c97c8a091b5',
  topic: 'orders/paid',
  subscriptionId: 'gid://shopify/WebhookSubscription/1',
  uri: 'http://127.0.0.1/',
  // Shopify's JSON keeps non-ASCII as UTF-8: the signature is over these exact bytes.
  body: JSON.stringify(restOrderPayload(TAXES_INCLUDED)),
  triggeredAt: '2026-11-20T10:15:02.000Z',
  attempts: 0,
  statuses: [],
  state: 'pending',
};
const body = Buffer.from(delivery.body, 'utf8');

describe('verifyShopifyWebhook: the HMAC over the raw body', () => {
  it('accepts a delivery signed with the client secret and names it by its headers', () => {
    expect(verifyShopifyWebhook(body, shop.deliveryHeaders(delivery), ['shpss_current'])).toEqual({
      valid: true,
      topic: 'orders/paid',
      shopDomain: 'loja-exemplo.myshopify.com',
      apiVersion: '2026-10',
      webhookId: delivery.webhookId,
      eventId: delivery.eventId,
      triggeredAt: delivery.triggeredAt,
    });
  });

  it('accepts the previous secret during a rotation', () => {
    expect(verifyShopifyWebhook(body, shop.deliveryHeaders(delivery, 'shpss_previous'), ['shpss_current', 'shpss_previous']).valid).toBe(true);
  });

  it.each([
    ['a body changed after signing (re-serialised JSON)', Buffer.from(JSON.stringify(JSON.parse(delivery.body), null, 1)), shop.deliveryHeaders(delivery), 'invalid_hmac', 401],
    ['another app\'s secret', body, shop.deliveryHeaders(delivery, 'shpss_other_app'), 'invalid_hmac', 401],
    ['no signature', body, { ...shop.deliveryHeaders(delivery), 'x-shopify-hmac-sha256': undefined }, 'missing_hmac', 401],
    ['a hex signature instead of base64', body, { ...shop.deliveryHeaders(delivery), 'x-shopify-hmac-sha256': createHmac('sha256', 'shpss_current').update(body).digest('hex') }, 'invalid_hmac', 401],
    ['an empty body', Buffer.alloc(0), shop.deliveryHeaders(delivery), 'missing_body', 400],
  ])('refuses %s', (_case, raw, headers, reason, status) => {
    const verdict = verifyShopifyWebhook(raw, headers, ['shpss_current']);
    expect(verdict).toEqual({ valid: false, reason });
    if (!verdict.valid) expect(statusOfRefusal(verdict.reason)).toBe(status);
  });

  it('names the headers a signed delivery lacks', () => {
    const headers = { ...shop.deliveryHeaders(delivery), 'x-shopify-topic': undefined, 'x-shopify-webhook-id': '' };
    expect(verifyShopifyWebhook(body, headers, ['shpss_current'])).toEqual({ valid: false, reason: 'missing_headers', missingHeaders: ['x-shopify-topic', 'x-shopify-webhook-id'] });
  });

  it('never accepts when no secret is configured', () => {
    expect(verifyShopifyWebhook(body, shop.deliveryHeaders(delivery, ''), ['']).valid).toBe(false);
  });
});
