import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';
import type { DeliveryProblem } from '../../connector/words';
import type { WebhookFinding } from '../shop-platform';

/**
 * What WooCommerce's webhooks need from a person, in WooCommerce's words (its settings screens, its
 * Secret, its X-WC-Webhook-* headers): the likely cause and the fix of each delivery the webhook
 * route refused (ingest/webhook-health.ts's codes, the console's webhook health and the alerts),
 * and what to do about an order webhook the sweep found not active or missing. Codes per language
 * (messages/catalogue.ts); the connector asks the platform (platforms/shop-platform.ts).
 */

export const WOO_WEBHOOK_WORDS = catalogue({
  'bad-signature-cause': fixed({
    en: "the webhook's Secret in WooCommerce differs from this tenant's shop.webhookSecret (or the webhook belongs to another shop)",
    pt: 'o Segredo do webhook no WooCommerce é diferente do shop.webhookSecret desta loja (ou o webhook é de outra loja)',
  }),
  'bad-signature-fix': fixed({
    en: 'In WooCommerce > Settings > Advanced > Webhooks, set the Secret of each order webhook to shop.webhookSecret (or change shop.webhookSecret and reload); the sweep catches the orders refused meanwhile.',
    pt: 'Em WooCommerce > Definições > Avançado > Webhooks, ponha no Segredo de cada webhook de encomendas o shop.webhookSecret (ou mude o shop.webhookSecret e recarregue o ficheiro de lojas); entretanto, a sincronização apanha as encomendas recusadas.',
  }),
  'missing-signature-cause': fixed({
    en: 'deliveries arrive unsigned: something other than WooCommerce posts to this URL, or a proxy strips the X-WC-Webhook-Signature header',
    pt: 'as entregas chegam sem assinatura: algo que não é o WooCommerce envia para este endereço, ou um proxy retira o cabeçalho X-WC-Webhook-Signature',
  }),
  'missing-signature-fix': fixed({
    en: 'Check what posts to this URL and that the proxy in front of the connector passes the X-WC-Webhook-* headers.',
    pt: 'Verifique o que envia pedidos para este endereço e se o proxy à frente do conector deixa passar os cabeçalhos X-WC-Webhook-*.',
  }),
  'unknown-topic-cause': fixed({
    en: 'a webhook of a topic the connector does not use (not an order created or updated, nor a product updated or deleted) delivers here',
    pt: 'um webhook com um tópico que o conector não usa (nem encomenda criada ou atualizada, nem produto atualizado ou eliminado) entrega neste endereço',
  }),
  'unknown-topic-fix': fixed({
    en: 'In WooCommerce > Settings > Advanced > Webhooks, delete that webhook or set its Topic to Order created / Order updated (or Product updated / Product deleted).',
    pt: 'Em WooCommerce > Definições > Avançado > Webhooks, apague esse webhook ou mude o Tópico para Encomenda criada / Encomenda atualizada (ou Produto atualizado / Produto eliminado).',
  }),
  'invalid-payload-cause': fixed({
    en: "the body is not an order as the REST API v3 sends it: the webhook's API version is not v3",
    pt: 'o corpo não é uma encomenda como a API REST v3 a envia: a versão da API do webhook não é a v3',
  }),
  'invalid-payload-fix': fixed({
    en: 'Set the API version of each order webhook to "WP REST API Integration v3".',
    pt: 'Ponha a versão da API de cada webhook de encomendas em "WP REST API Integration v3".',
  }),
  'malformed-json-cause': fixed({
    en: 'the body is not JSON: a plugin or proxy altered it',
    pt: 'o corpo não é JSON: um plugin ou um proxy alterou-o',
  }),
  'malformed-json-fix': fixed({
    en: 'Check the plugins that hook into webhook deliveries and the proxy in front of the connector.',
    pt: 'Verifique os plugins que interferem com as entregas de webhooks e o proxy à frente do conector.',
  }),
  'too-large-cause': fixed({
    en: 'the order is larger than server.maxBodyBytes',
    pt: 'a encomenda é maior do que server.maxBodyBytes',
  }),
  'too-large-fix': fixed({
    en: 'Raise server.maxBodyBytes; the sweep issues the order meanwhile.',
    pt: 'Aumente server.maxBodyBytes; entretanto, a sincronização apanha a encomenda.',
  }),
  'redis-unavailable-cause': fixed({
    en: "the connector's Redis did not answer (503)",
    pt: 'o Redis do conector não respondeu (503)',
  }),
  'redis-unavailable-fix': fixed({
    en: "Check Redis; WooCommerce does not resend, the sweep catches those orders.",
    pt: 'Verifique o Redis. O WooCommerce não volta a enviar essas entregas, mas a sincronização apanha as encomendas.',
  }),
  'webhook-inactive': words(
    { id: z.number(), topic: z.string() },
    {
      pt: (p) => `Em WooCommerce > Definições > Avançado > Webhooks, volte a pôr o webhook ${p.id} (${p.topic}) no estado Ativo; a sincronização apanha as encomendas que lhe escaparam.`,
      en: (p) => `In WooCommerce > Settings > Advanced > Webhooks, set webhook ${p.id} (${p.topic}) back to Active; the sweep catches the orders it missed.`,
    },
  ),
  'webhook-missing': words(
    { topic: z.string() },
    {
      pt: (p) => `Adicione um webhook ${p.topic}, no estado Ativo, que entregue ao conector (docs/connector.md); até lá, a sincronização apanha essas encomendas.`,
      en: (p) => `Add an Active ${p.topic} webhook that delivers to the connector (docs/connector.md); until then the sweep catches those orders.`,
    },
  ),
});

/** A refused delivery's likely cause and fix, as a WooCommerce shop owner reads them. */
export function wooDeliveryProblemWords(lang: Lang, reason: DeliveryProblem): { cause: string; fix: string } {
  return { cause: WOO_WEBHOOK_WORDS.say(lang, `${reason}-cause`), fix: WOO_WEBHOOK_WORDS.say(lang, `${reason}-fix`) };
}

/** An order webhook set back to Active, or added, in WooCommerce's webhook screen. */
export function wooWebhookFix(lang: Lang, finding: WebhookFinding): string {
  return finding.state === 'inactive' ? WOO_WEBHOOK_WORDS.say(lang, 'webhook-inactive', { id: finding.id, topic: finding.topic }) : WOO_WEBHOOK_WORDS.say(lang, 'webhook-missing', { topic: finding.topic });
}
