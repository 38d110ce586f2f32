import type { TenantConfig } from '../config/load-config';
import type { ShopWebhook, WooShop } from '../shop/woo-shop';
import { deliveryUrlFor, NEEDED_TOPICS, sameDeliveryUrl } from '../shop/webhook-delivery';
import { fail, ok, warn, type Check } from './check';
import { shopCallProblem } from './shop-checks';
/** WC_Webhook::get_api_version of a webhook saved as "WP REST API Integration v3". */
const API_V3 = 'wp_api_v3';
const WEBHOOKS_PAGE = 'WooCommerce > Settings > Advanced > Webhooks';


/**
 * Present, active and delivering to this connector, per needed topic; then the secret and the API
 * version where the shop's REST answer shows them. WooCommerce's own answer never does (the v2/v3
 * controllers leave both out), so those two are "could not check" with what to look at.
 */
export async function checkWebhooks(shop: WooShop, tenant: TenantConfig, publicUrl: string): Promise<Check[]> {
  let hooks: ShopWebhook[];
  try {
    hooks = await shop.listWebhooks();
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    return [fail('webhooks', 'webhooks', `could not list the shop's webhooks: ${problem.detail}`, problem.fix)];
  }
  const url = deliveryUrlFor(publicUrl, tenant.id);
  const addHint = (topic: string): string =>
    `In ${WEBHOOKS_PAGE} > Add webhook: Status Active, Topic ${topicLabel(topic)}, Delivery URL ${url}, Secret = shop.webhookSecret, API version WP REST API Integration v3.`;
  const checks: Check[] = [];
  const ours: ShopWebhook[] = [];
  for (const topic of NEEDED_TOPICS) {
    const name = `webhook ${topic}`;
    const forTopic = hooks.filter((hook) => hook.topic === topic);
    const active = forTopic.filter((hook) => hook.status === 'active');
    const delivering = active.filter((hook) => sameDeliveryUrl(hook.delivery_url, url));
    if (delivering.length > 0) {
      ours.push(...delivering);
      checks.push(ok('webhooks', name, `active, delivers to ${url} (webhook ${delivering.map((h) => h.id).join(', ')})`));
    } else if (forTopic.length === 0) {
      checks.push(fail('webhooks', name, `missing: the shop sends no ${topic} to anyone`, addHint(topic)));
    } else if (active.length === 0) {
      const states = forTopic.map((hook) => `webhook ${hook.id} is ${hook.status}`).join(', ');
      checks.push(
        fail(
          'webhooks',
          name,
          `${states}: nothing is delivered`,
          `In ${WEBHOOKS_PAGE}, open it, point it at ${url} if it is not, and set Status to Active (WooCommerce disables a webhook after more than 5 failed deliveries in a row: the sweep catches up the orders it missed).`,
        ),
      );
    } else {
      const elsewhere = active.map((hook) => `webhook ${hook.id} delivers to ${hook.delivery_url}`).join(', ');
      checks.push(fail('webhooks', name, `${elsewhere}, not to this connector`, `In ${WEBHOOKS_PAGE}, set its Delivery URL to ${url} (server.publicUrl + /webhooks/woocommerce/${tenant.id}).`));
    }
  }
  if (ours.length === 0) return checks;

  const shown = ours.filter((hook) => typeof hook.secret === 'string' && hook.secret !== '');
  if (shown.length === 0) {
    checks.push(
      warn(
        'webhooks',
        'webhook secret',
        "could not check: WooCommerce's REST API does not show a webhook's secret",
        `In ${WEBHOOKS_PAGE}, check that the Secret of each webhook above equals shop.webhookSecret. A wrong secret shows as 401 bad-signature refusals in the connector's log (magnifinance_webhooks_refused_total).`,
      ),
    );
  } else {
    const wrong = shown.filter((hook) => hook.secret !== tenant.shop.webhookSecret);
    checks.push(
      wrong.length === 0
        ? ok('webhooks', 'webhook secret', `equal to shop.webhookSecret (webhook ${shown.map((h) => h.id).join(', ')})`)
        : fail(
            'webhooks',
            'webhook secret',
            `webhook ${wrong.map((h) => h.id).join(', ')} signs with another secret than shop.webhookSecret: the connector refuses its deliveries (401)`,
            `In ${WEBHOOKS_PAGE}, set the Secret of webhook ${wrong.map((h) => h.id).join(', ')} to the value of shop.webhookSecret (or the other way round).`,
          ),
    );
  }

  const versioned = ours.filter((hook) => typeof hook.api_version === 'string' && hook.api_version !== '');
  if (versioned.length === 0) {
    checks.push(
      warn(
        'webhooks',
        'webhook API version',
        "could not check: WooCommerce's REST API does not show a webhook's API version",
        `In ${WEBHOOKS_PAGE}, check that each webhook above has API version "WP REST API Integration v3". Another version sends another payload, refused as 400 invalid-payload in the connector's log.`,
      ),
    );
  } else {
    const old = versioned.filter((hook) => hook.api_version !== API_V3);
    checks.push(
      old.length === 0
        ? ok('webhooks', 'webhook API version', `v3 (webhook ${versioned.map((h) => h.id).join(', ')})`)
        : fail(
            'webhooks',
            'webhook API version',
            `${old.map((hook) => `webhook ${hook.id} uses ${String(hook.api_version)}`).join(', ')}: its payload is not the v3 order the connector reads`,
            `In ${WEBHOOKS_PAGE}, open webhook ${old.map((h) => h.id).join(', ')} and set API version to "WP REST API Integration v3".`,
          ),
    );
  }
  return checks;
}

function topicLabel(topic: string): string {
  return topic === 'order.created' ? 'Order created' : topic === 'order.updated' ? 'Order updated' : topic;
}
