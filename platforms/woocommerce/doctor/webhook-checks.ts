import type { TenantConfig } from '../../../connector/config/load-config';
import type { WooShop } from '../woo-shop';
import type { ShopWebhook } from '../../../connector/shop/shop';
import { deliveryUrlFor, NEEDED_TOPICS, PRODUCT_TOPICS, sameDeliveryUrl } from '../webhook-delivery';
import { SHOP_FACTS_TTL_MS } from '../woo-shop';
import { both, couldNotCheck, fail, ok, warn, type Check } from '../../../connector/doctor/check';
import { shopCallProblem } from './shop-checks';
/** WC_Webhook::get_api_version of a webhook saved as "WP REST API Integration v3". */
const API_V3 = 'wp_api_v3';
const PAGE = { en: 'WooCommerce > Settings > Advanced > Webhooks', pt: 'WooCommerce > Definições > Avançado > Webhooks' };


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
    return [
      fail(
        'webhooks',
        'webhooks',
        both((w) => `could not list the shop's webhooks: ${w(problem.detail)}`, (w) => `não foi possível listar os webhooks da loja: ${w(problem.detail)}`),
        problem.fix,
      ),
    ];
  }
  const url = deliveryUrlFor(publicUrl, tenant.id);
  const addHint = (topic: string) => ({
    en: `In ${PAGE.en} > Add webhook: Status Active, Topic ${topicLabel(topic).en}, Delivery URL ${url}, Secret = shop.webhookSecret, API version WP REST API Integration v3.`,
    pt: `Em ${PAGE.pt} > Adicionar webhook: Estado Ativo, Tópico ${topicLabel(topic).pt}, URL de entrega ${url}, Segredo = shop.webhookSecret, Versão da API WP REST API Integration v3.`,
  });
  const checks: Check[] = [];
  const ours: ShopWebhook[] = [];
  for (const topic of NEEDED_TOPICS) {
    const name = `webhook ${topic}`;
    const forTopic = hooks.filter((hook) => hook.topic === topic);
    const active = forTopic.filter((hook) => hook.status === 'active');
    const delivering = active.filter((hook) => sameDeliveryUrl(hook.delivery_url, url));
    if (delivering.length > 0) {
      ours.push(...delivering);
      const ids = delivering.map((h) => h.id).join(', ');
      checks.push(ok('webhooks', name, { en: `active, delivers to ${url} (webhook ${ids})`, pt: `ativo, entrega em ${url} (webhook ${ids})` }));
    } else if (forTopic.length === 0) {
      checks.push(fail('webhooks', name, { en: `missing: the shop sends no ${topic} to anyone`, pt: `em falta: a loja não envia ${topic} a ninguém` }, addHint(topic)));
    } else if (active.length === 0) {
      checks.push(
        fail(
          'webhooks',
          name,
          {
            en: `${forTopic.map((hook) => `webhook ${hook.id} is ${hook.status}`).join(', ')}: nothing is delivered`,
            pt: `${forTopic.map((hook) => `o webhook ${hook.id} está ${STATUS_PT[hook.status] ?? hook.status}`).join(', ')}: nada é entregue`,
          },
          {
            en: `In ${PAGE.en}, open it, point it at ${url} if it is not, and set Status to Active (WooCommerce disables a webhook after more than 5 failed deliveries in a row: the sweep catches up the orders it missed).`,
            pt: `Em ${PAGE.pt}, abra-o, aponte-o para ${url} se ainda não estiver e ponha o Estado em Ativo (o WooCommerce desativa um webhook depois de mais de 5 entregas falhadas seguidas: a sincronização apanha as encomendas que lhe escaparam).`,
          },
        ),
      );
    } else {
      checks.push(
        fail(
          'webhooks',
          name,
          {
            en: `${active.map((hook) => `webhook ${hook.id} delivers to ${hook.delivery_url}`).join(', ')}, not to this connector`,
            pt: `${active.map((hook) => `o webhook ${hook.id} entrega em ${hook.delivery_url}`).join(', ')}, não neste conector`,
          },
          {
            en: `In ${PAGE.en}, set its Delivery URL to ${url} (server.publicUrl + /webhooks/woocommerce/${tenant.id}).`,
            pt: `Em ${PAGE.pt}, ponha no URL de entrega ${url} (server.publicUrl + /webhooks/woocommerce/${tenant.id}).`,
          },
        ),
      );
    }
  }
  // Recommended: the connector caches the shop's products; these deliveries make it forget a changed one at once.
  const minutes = SHOP_FACTS_TTL_MS / 60_000;
  for (const topic of PRODUCT_TOPICS) {
    const name = `webhook ${topic}`;
    const delivering = hooks.filter((hook) => hook.topic === topic && hook.status === 'active' && sameDeliveryUrl(hook.delivery_url, url));
    if (delivering.length > 0) {
      ours.push(...delivering);
      const ids = delivering.map((h) => h.id).join(', ');
      checks.push(ok('webhooks', name, { en: `active, delivers to ${url} (webhook ${ids}): a changed product is read again at once`, pt: `ativo, entrega em ${url} (webhook ${ids}): um produto alterado é lido de novo de imediato` }));
    } else {
      checks.push(
        warn(
          'webhooks',
          name,
          {
            en: `no active ${topic} webhook delivers to ${url}: a product made virtual, moved to another category or deleted reaches invoices only when the connector's copy of it expires (up to ${minutes} minutes)`,
            pt: `nenhum webhook ${topic} ativo entrega em ${url}: um produto tornado virtual, mudado de categoria ou eliminado só chega às faturas quando a cópia do conector expira (até ${minutes} minutos)`,
          },
          addHint(topic),
        ),
      );
    }
  }
  if (ours.length === 0) return checks;

  const secretName = { en: 'webhook secret', pt: 'Segredo dos webhooks' };
  const shown = ours.filter((hook) => typeof hook.secret === 'string' && hook.secret !== '');
  if (shown.length === 0) {
    checks.push(
      warn(
        'webhooks',
        secretName,
        couldNotCheck({ en: "WooCommerce's REST API does not show a webhook's secret", pt: 'a API REST do WooCommerce não mostra o segredo de um webhook' }),
        {
          en: `In ${PAGE.en}, check that the Secret of each webhook above equals shop.webhookSecret. A wrong secret shows as 401 bad-signature refusals in the connector's log (magnifinance_webhooks_refused_total).`,
          pt: `Em ${PAGE.pt}, confirme que o Segredo de cada webhook acima é igual a shop.webhookSecret. Um segredo errado aparece como recusas 401 bad-signature no registo do conector (magnifinance_webhooks_refused_total).`,
        },
      ),
    );
  } else {
    const wrong = shown.filter((hook) => hook.secret !== tenant.shop.webhookSecret);
    const ids = wrong.map((h) => h.id).join(', ');
    checks.push(
      wrong.length === 0
        ? ok('webhooks', secretName, { en: `equal to shop.webhookSecret (webhook ${shown.map((h) => h.id).join(', ')})`, pt: `igual a shop.webhookSecret (webhook ${shown.map((h) => h.id).join(', ')})` })
        : fail(
            'webhooks',
            secretName,
            {
              en: `webhook ${ids} signs with another secret than shop.webhookSecret: the connector refuses its deliveries (401)`,
              pt: `o webhook ${ids} assina com um segredo diferente de shop.webhookSecret: o conector recusa as suas entregas (401)`,
            },
            {
              en: `In ${PAGE.en}, set the Secret of webhook ${ids} to the value of shop.webhookSecret (or the other way round).`,
              pt: `Em ${PAGE.pt}, ponha no Segredo do webhook ${ids} o valor de shop.webhookSecret (ou o contrário).`,
            },
          ),
    );
  }

  const versionName = { en: 'webhook API version', pt: 'Versão da API dos webhooks' };
  const versioned = ours.filter((hook) => typeof hook.api_version === 'string' && hook.api_version !== '');
  if (versioned.length === 0) {
    checks.push(
      warn(
        'webhooks',
        versionName,
        couldNotCheck({ en: "WooCommerce's REST API does not show a webhook's API version", pt: 'a API REST do WooCommerce não mostra a versão da API de um webhook' }),
        {
          en: `In ${PAGE.en}, check that each webhook above has API version "WP REST API Integration v3". Another version sends another payload, refused as 400 invalid-payload in the connector's log.`,
          pt: `Em ${PAGE.pt}, confirme que cada webhook acima tem a versão da API "WP REST API Integration v3". Outra versão envia outro conteúdo, recusado como 400 invalid-payload no registo do conector.`,
        },
      ),
    );
  } else {
    const old = versioned.filter((hook) => hook.api_version !== API_V3);
    const ids = old.map((h) => h.id).join(', ');
    checks.push(
      old.length === 0
        ? ok('webhooks', versionName, `v3 (webhook ${versioned.map((h) => h.id).join(', ')})`)
        : fail(
            'webhooks',
            versionName,
            {
              en: `${old.map((hook) => `webhook ${hook.id} uses ${String(hook.api_version)}`).join(', ')}: its payload is not the v3 order the connector reads`,
              pt: `${old.map((hook) => `o webhook ${hook.id} usa ${String(hook.api_version)}`).join(', ')}: o seu conteúdo não é a encomenda v3 que o conector lê`,
            },
            {
              en: `In ${PAGE.en}, open webhook ${ids} and set API version to "WP REST API Integration v3".`,
              pt: `Em ${PAGE.pt}, abra o webhook ${ids} e ponha a versão da API em "WP REST API Integration v3".`,
            },
          ),
    );
  }
  return checks;
}

const STATUS_PT: Record<string, string> = { active: 'ativo', paused: 'em pausa', disabled: 'desativado' };

function topicLabel(topic: string): { en: string; pt: string } {
  if (topic === 'order.created') return { en: 'Order created', pt: 'Encomenda criada' };
  if (topic === 'order.updated') return { en: 'Order updated', pt: 'Encomenda atualizada' };
  if (topic === 'product.updated') return { en: 'Product updated', pt: 'Produto atualizado' };
  if (topic === 'product.deleted') return { en: 'Product deleted', pt: 'Produto eliminado' };
  return { en: topic, pt: topic };
}
