import type { TenantConfig } from '../../../connector/config/load-config';
import type { WooShop } from '../woo-shop';
import type { ShopWebhook } from '../../../connector/shop/shop';
import { deliveryUrlFor, NEEDED_TOPICS, PRODUCT_TOPICS, sameDeliveryUrl } from '../webhook-delivery';
import { SHOP_FACTS_TTL_MS } from '../woo-shop';
import { couldNotCheck, fail, ok, warn, type Check } from '../../../connector/doctor/check';
import { shopCallProblem } from './shop-checks';
import { wooSays } from './woo-doctor-messages';
/** WC_Webhook::get_api_version of a webhook saved as "WP REST API Integration v3". */
const API_V3 = 'wp_api_v3';

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
    return [fail('webhooks', wooSays('webhooks-name'), wooSays('webhooks-unlisted', { detail: problem.detail }), problem.fix)];
  }
  const url = deliveryUrlFor(publicUrl, tenant.id);
  const checks: Check[] = [];
  const ours: ShopWebhook[] = [];
  for (const topic of NEEDED_TOPICS) {
    const name = wooSays('webhook-name', { topic });
    const forTopic = hooks.filter((hook) => hook.topic === topic);
    const active = forTopic.filter((hook) => hook.status === 'active');
    const delivering = active.filter((hook) => sameDeliveryUrl(hook.delivery_url, url));
    if (delivering.length > 0) {
      ours.push(...delivering);
      checks.push(ok('webhooks', name, wooSays('webhook-ok', { url, ids: delivering.map((h) => h.id) })));
    } else if (forTopic.length === 0) {
      checks.push(fail('webhooks', name, wooSays('webhook-missing', { topic }), wooSays('add-webhook-fix', { topic, url })));
    } else if (active.length === 0) {
      checks.push(fail('webhooks', name, wooSays('webhook-inactive', { hooks: forTopic.map((hook) => ({ id: hook.id, status: hook.status })) }), wooSays('webhook-inactive-fix', { url })));
    } else {
      checks.push(
        fail('webhooks', name, wooSays('webhook-elsewhere', { hooks: active.map((hook) => ({ id: hook.id, url: hook.delivery_url })) }), wooSays('webhook-elsewhere-fix', { url, tenant: tenant.id })),
      );
    }
  }
  // Recommended: the connector caches the shop's products; these deliveries make it forget a changed one at once.
  const minutes = SHOP_FACTS_TTL_MS / 60_000;
  for (const topic of PRODUCT_TOPICS) {
    const name = wooSays('webhook-name', { topic });
    const delivering = hooks.filter((hook) => hook.topic === topic && hook.status === 'active' && sameDeliveryUrl(hook.delivery_url, url));
    if (delivering.length > 0) {
      ours.push(...delivering);
      checks.push(ok('webhooks', name, wooSays('product-webhook-ok', { url, ids: delivering.map((h) => h.id) })));
    } else {
      checks.push(warn('webhooks', name, wooSays('product-webhook-missing', { topic, url, minutes }), wooSays('add-webhook-fix', { topic, url })));
    }
  }
  if (ours.length === 0) return checks;

  const secretName = wooSays('secret-name');
  const shown = ours.filter((hook) => typeof hook.secret === 'string' && hook.secret !== '');
  if (shown.length === 0) {
    checks.push(warn('webhooks', secretName, couldNotCheck(wooSays('secret-hidden')), wooSays('secret-hidden-fix')));
  } else {
    const wrong = shown.filter((hook) => hook.secret !== tenant.shop.webhookSecret).map((h) => h.id);
    checks.push(
      wrong.length === 0
        ? ok('webhooks', secretName, wooSays('secret-ok', { ids: shown.map((h) => h.id) }))
        : fail('webhooks', secretName, wooSays('secret-wrong', { ids: wrong }), wooSays('secret-wrong-fix', { ids: wrong })),
    );
  }

  const versionName = wooSays('api-version-name');
  const versioned = ours.filter((hook) => typeof hook.api_version === 'string' && hook.api_version !== '');
  if (versioned.length === 0) {
    checks.push(warn('webhooks', versionName, couldNotCheck(wooSays('api-version-hidden')), wooSays('api-version-hidden-fix')));
  } else {
    const old = versioned.filter((hook) => hook.api_version !== API_V3);
    checks.push(
      old.length === 0
        ? ok('webhooks', versionName, wooSays('api-version-ok', { ids: versioned.map((h) => h.id) }))
        : fail(
            'webhooks',
            versionName,
            wooSays('api-version-old', { hooks: old.map((hook) => ({ id: hook.id, version: String(hook.api_version) })) }),
            wooSays('api-version-old-fix', { ids: old.map((h) => h.id) }),
          ),
    );
  }
  return checks;
}
