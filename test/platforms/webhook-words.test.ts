import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWebhooks } from '../../connector/alerts/digest';
import { DELIVERY_PROBLEMS } from '../../connector/words';
import { PLATFORMS } from '../../platforms/registry';
import { LANGS } from '../../messages/lang';
import { deliveryProblemOf } from '../../platforms/shopify/webhook-words';
import { sweepReport } from '../connector/support/sweep-report';

/**
 * A refused delivery's cause and fix, and a webhook alert's fix, are the tenant's platform's words
 * (issue 25.3, issue 27): a WooCommerce tenant reads exactly what it read when the connector worded
 * them (pinned in fixtures/woo-webhook-words-before.json, taken from the connector before the move),
 * and a Shopify tenant reads Shopify's: the app's client secret, its subscriptions, its headers.
 */

const BEFORE = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'woo-webhook-words-before.json'), 'utf8')) as Record<string, unknown>;
// The report the words were pinned with: a disabled webhook, a missing topic, three refused deliveries.
const REPORT = sweepReport({
  inactiveWebhooks: [{ id: 7, topic: 'order.updated', status: 'disabled', deliveryUrl: 'https://c/webhooks/woocommerce/loja' }],
  missingTopics: ['order.created'],
  refusedDeliveries: [{ reason: 'bad-signature', count: 3, lastAt: String(Date.UTC(2026, 10, 25, 2, 10)) }],
});

describe('a WooCommerce tenant reads exactly the words it read before', () => {
  it.each(LANGS.flatMap((lang) => DELIVERY_PROBLEMS.map((reason) => [lang, reason] as const)))('%s: delivery problem %s', (lang, reason) => {
    expect(PLATFORMS.woocommerce.deliveryProblemWords(lang, reason)).toEqual(BEFORE[`${lang}:${reason}`]);
  });

  it.each(LANGS)('%s: the webhook alerts (a disabled webhook, a missing topic, refused deliveries)', (lang) => {
    expect(describeWebhooks(REPORT, PLATFORMS.woocommerce, lang, 'Europe/Lisbon')).toEqual(BEFORE[`alerts:${lang}`]);
  });
});

describe("a Shopify tenant reads Shopify's words, never WooCommerce's", () => {
  const WOO = /WooCommerce|X-WC-|webhookSecret|WP REST API|Definições > Avançado|Settings > Advanced|Active|Ativo/;

  it.each(LANGS.flatMap((lang) => DELIVERY_PROBLEMS.map((reason) => [lang, reason] as const)))('%s: delivery problem %s', (lang, reason) => {
    const words = PLATFORMS.shopify.deliveryProblemWords(lang, reason);
    expect(`${words.cause} ${words.fix}`).not.toMatch(WOO);
    const woo = PLATFORMS.woocommerce.deliveryProblemWords(lang, reason);
    expect(`${words.cause} ${words.fix}`).not.toBe(`${woo.cause} ${woo.fix}`);
  });

  it("a wrong signature names the app's client secret and the admin's hand-made webhooks, in each language's admin words", () => {
    const en = PLATFORMS.shopify.deliveryProblemWords('en', 'bad-signature');
    expect(en.cause).toContain('shopify.clientSecret');
    expect(en.fix).toContain('Settings > Notifications > Webhooks');
    expect(en.fix).toContain('shopify.previousClientSecret');
    const pt = PLATFORMS.shopify.deliveryProblemWords('pt', 'bad-signature');
    expect(pt.cause).toContain('segredo de cliente da app em shopify.clientSecret');
    expect(pt.fix).toContain('Definições > Notificações > Webhooks');
    expect(PLATFORMS.shopify.deliveryProblemWords('en', 'missing-signature').cause).toContain('X-Shopify-Hmac-Sha256');
  });

  it.each(LANGS)("%s: the webhook alerts say the connector creates the subscriptions itself", (lang) => {
    const alerts = describeWebhooks(sweepReport({ inactiveWebhooks: [], missingTopics: ['orders/paid'], refusedDeliveries: [{ reason: 'bad-signature', count: 1, lastAt: String(Date.UTC(2026, 10, 25, 2, 10)) }] }), PLATFORMS.shopify, lang, 'Europe/Lisbon');
    expect(alerts.map((alert) => alert.fix).join(' ')).not.toMatch(WOO);
    expect(alerts[0].fix).toContain(lang === 'en' ? 'could not create its orders/paid subscription' : 'não conseguiu criar a sua subscrição orders/paid');
    expect(alerts[1].fix).toContain(lang === 'en' ? '1 delivery refused' : '1 entrega recusada');
    expect(PLATFORMS.shopify.webhookFix(lang, { state: 'inactive', id: 4, topic: 'orders/paid' })).toContain('orders/paid');
  });

  it("the route's refusals (Shopify's library's reasons) are counted under the connector's codes", () => {
    expect(['invalid_hmac', 'missing_hmac', 'missing_headers', 'invalid-payload', 'other-store', 'missing_body'].map(deliveryProblemOf)).toEqual(['bad-signature', 'missing-signature', 'missing-signature', 'invalid-payload', undefined, undefined]);
  });
});
