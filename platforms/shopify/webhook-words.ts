import { z } from 'zod';
import { catalogue, fixed, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';
import { isDeliveryProblem, type DeliveryProblem } from '../../connector/words';
import type { WebhookFinding } from '../shop-platform';

/**
 * What a Shopify store's webhooks need from a person, in Shopify's words: the likely cause and the
 * fix of each delivery the webhook route refused (ingest/webhook-health.ts's codes; the console's
 * webhook health and the alerts), and what to do about a subscription the webhook watch could not
 * create again. Codes per language (messages/catalogue.ts).
 *
 * What is true of this product (docs/shopify.md): the connector creates its own subscriptions
 * through the Admin API (JSON, at <publicUrl>/webhooks/shopify/<tenant>), signed by Shopify with the
 * app's client secret; nothing is typed into the Shopify admin. Shopify retries a delivery that is
 * not answered 2xx 8 times over 4 hours and then deletes an API-created subscription, which the
 * watch creates again; the sweep lists the orders changed meanwhile. A webhook made by hand in the
 * admin (Settings > Notifications > Webhooks) is signed with the store's own notification key, never
 * the app's secret, so its deliveries are refused as unsigned by this app.
 */

const TOPIC = { topic: z.string() };

export const SHOPIFY_WEBHOOK_WORDS = catalogue({
  'bad-signature-cause': fixed({
    en: "the delivery's X-Shopify-Hmac-Sha256 does not match the app's client secret in shopify.clientSecret: the secret was rotated in the Dev Dashboard, the tenant names another app's secret, or a webhook made by hand in the Shopify admin (Settings > Notifications > Webhooks, signed with the store's own key, not the app's) delivers to this URL",
    pt: 'o X-Shopify-Hmac-Sha256 da entrega não confere com o segredo de cliente da app em shopify.clientSecret: o segredo foi renovado no Dev Dashboard, a loja tem o segredo de outra app, ou um webhook criado à mão no admin do Shopify (Definições > Notificações > Webhooks, assinado com a chave da própria loja e não com a da app) entrega neste endereço',
  }),
  'bad-signature-fix': fixed({
    en: "Put the app's current client secret (the app's Settings in the Dev Dashboard) in shopify.clientSecret, and while Shopify rotates it the previous one in shopify.previousClientSecret, then reload; delete any webhook made by hand in Settings > Notifications > Webhooks that delivers here (the connector creates its own subscriptions through the app). Shopify retries a refused delivery for 4 hours, and the sweep catches the orders meanwhile.",
    pt: 'Ponha em shopify.clientSecret o segredo de cliente atual da app (nas Definições da app no Dev Dashboard) e, enquanto o Shopify o renova, o anterior em shopify.previousClientSecret; depois recarregue o ficheiro de lojas. Apague qualquer webhook criado à mão em Definições > Notificações > Webhooks que entregue aqui (o conector cria as suas próprias subscrições através da app). O Shopify volta a tentar uma entrega recusada durante 4 horas e, entretanto, a sincronização apanha as encomendas.',
  }),
  'missing-signature-cause': fixed({
    en: "deliveries arrive without Shopify's X-Shopify-Hmac-Sha256 signature or its X-Shopify-Topic, X-Shopify-Shop-Domain, X-Shopify-API-Version and X-Shopify-Webhook-Id headers: something other than Shopify posts to this URL, or a proxy strips the X-Shopify-* headers",
    pt: 'as entregas chegam sem a assinatura X-Shopify-Hmac-Sha256 do Shopify ou sem os cabeçalhos X-Shopify-Topic, X-Shopify-Shop-Domain, X-Shopify-API-Version e X-Shopify-Webhook-Id: algo que não é o Shopify envia para este endereço, ou um proxy retira os cabeçalhos X-Shopify-*',
  }),
  'missing-signature-fix': fixed({
    en: 'Check what posts to this URL and that the proxy in front of the connector passes the X-Shopify-* headers.',
    pt: 'Verifique o que envia pedidos para este endereço e se o proxy à frente do conector deixa passar os cabeçalhos X-Shopify-*.',
  }),
  'unknown-topic-cause': fixed({
    en: "a subscription of the app with a topic the connector does not use (it uses orders/paid, orders/updated, orders/cancelled, refunds/create and app/uninstalled) delivers here: one added to the app's configuration or by another tool with the app's token; the connector acknowledges those deliveries and does nothing with them",
    pt: 'uma subscrição da app com um tópico que o conector não usa (usa orders/paid, orders/updated, orders/cancelled, refunds/create e app/uninstalled) entrega neste endereço: uma acrescentada à configuração da app ou por outra ferramenta com o token da app; o conector aceita essas entregas e não faz nada com elas',
  }),
  'unknown-topic-fix': fixed({
    en: "Remove that topic from the app's webhook subscriptions (its configuration in the Dev Dashboard or shopify.app.toml, or the tool that created it); the connector needs only the five it creates itself.",
    pt: 'Retire esse tópico das subscrições de webhooks da app (a sua configuração no Dev Dashboard ou no shopify.app.toml, ou a ferramenta que o criou); o conector só precisa das cinco que cria sozinho.',
  }),
  'invalid-payload-cause': fixed({
    en: "the body of an orders/* or refunds/create delivery does not read as Shopify's order or refund (fields missing or of another type, or an id above 2^53 - 1); the connector's log line \"webhook refused\" names the fields",
    pt: 'o corpo de uma entrega orders/* ou refunds/create não tem a forma de uma encomenda ou de um reembolso do Shopify (campos em falta ou de outro tipo, ou um id acima de 2^53 - 1); a linha "webhook refused" do registo do conector indica os campos',
  }),
  'invalid-payload-fix': fixed({
    en: 'The sweep reads those orders through the Admin API meanwhile. Run the doctor; if the refusals go on, report them with the fields the log names.',
    pt: 'Entretanto, a sincronização lê essas encomendas pela Admin API. Corra o doctor; se as recusas continuarem, comunique-as com os campos que o registo indica.',
  }),
  'malformed-json-cause': fixed({
    en: 'the body is not JSON: a subscription of the app in XML format delivers here (the connector creates its own in JSON)',
    pt: 'o corpo não é JSON: uma subscrição da app em formato XML entrega neste endereço (o conector cria as suas em JSON)',
  }),
  'malformed-json-fix': fixed({
    en: 'Delete that XML subscription, or set its format to JSON; the sweep catches the orders meanwhile.',
    pt: 'Apague essa subscrição em XML, ou mude o seu formato para JSON; entretanto, a sincronização apanha as encomendas.',
  }),
  'too-large-cause': fixed({ en: 'the delivery is larger than server.maxBodyBytes (an order with very many lines)', pt: 'a entrega é maior do que server.maxBodyBytes (uma encomenda com muitíssimas linhas)' }),
  'too-large-fix': fixed({
    en: 'Raise server.maxBodyBytes; Shopify retries the delivery for 4 hours, and the sweep catches the order meanwhile.',
    pt: 'Aumente server.maxBodyBytes; o Shopify volta a tentar a entrega durante 4 horas e, entretanto, a sincronização apanha a encomenda.',
  }),
  'redis-unavailable-cause': fixed({ en: "the connector's Redis did not answer (503)", pt: 'o Redis do conector não respondeu (503)' }),
  'redis-unavailable-fix': fixed({
    en: 'Check Redis. Shopify retries each delivery 8 times over 4 hours (then removes the subscription, which the connector creates again), and the sweep catches those orders.',
    pt: 'Verifique o Redis. O Shopify volta a tentar cada entrega 8 vezes em 4 horas (depois remove a subscrição, que o conector cria de novo) e a sincronização apanha essas encomendas.',
  }),

  // What the sweep found of the store's subscriptions (the watch creates again the ones Shopify removed).
  'subscription-inactive': words(
    { id: z.number(), ...TOPIC },
    {
      en: (p) => `Subscription ${p.id} (${p.topic}) does not deliver: the connector creates its subscriptions again at its next webhook check (every minute). If this stays, run the doctor (the app installed, its token and access scopes); the sweep catches the orders meanwhile.`,
      pt: (p) => `A subscrição ${p.id} (${p.topic}) não entrega: o conector volta a criar as suas subscrições na próxima verificação dos webhooks (a cada minuto). Se continuar, corra o doctor (a app instalada, o seu token e os âmbitos de acesso); entretanto, a sincronização apanha as encomendas.`,
    },
  ),
  'subscription-missing': words(TOPIC, {
    en: (p) =>
      `The connector could not create its ${p.topic} subscription on the store (it creates again every subscription Shopify removes after 8 failed deliveries): run the doctor (the app installed, its token accepted, server.publicUrl this connector as Shopify reaches it); until then the sweep catches those orders.`,
    pt: (p) =>
      `O conector não conseguiu criar a sua subscrição ${p.topic} na loja (cria de novo cada subscrição que o Shopify remove depois de 8 entregas falhadas): corra o doctor (a app instalada, o seu token aceite, server.publicUrl este conector tal como o Shopify o alcança); até lá, a sincronização apanha essas encomendas.`,
  }),
});

/** A refused delivery's likely cause and fix, as a Shopify merchant (or their agency) reads them. */
export function shopifyDeliveryProblemWords(lang: Lang, reason: DeliveryProblem): { cause: string; fix: string } {
  return { cause: SHOPIFY_WEBHOOK_WORDS.say(lang, `${reason}-cause`), fix: SHOPIFY_WEBHOOK_WORDS.say(lang, `${reason}-fix`) };
}

/** A subscription that does not deliver, or a topic without one: the watch creates them; the doctor says why it could not. */
export function shopifyWebhookFix(lang: Lang, finding: WebhookFinding): string {
  return finding.state === 'inactive'
    ? SHOPIFY_WEBHOOK_WORDS.say(lang, 'subscription-inactive', { id: finding.id, topic: finding.topic })
    : SHOPIFY_WEBHOOK_WORDS.say(lang, 'subscription-missing', { topic: finding.topic });
}

/** The webhook route's refusals (Shopify's library's reasons) as the connector's webhook health counts them; undefined: not counted. */
export function deliveryProblemOf(reason: string): DeliveryProblem | undefined {
  if (reason === 'invalid_hmac') return 'bad-signature';
  if (reason === 'missing_hmac' || reason === 'missing_headers') return 'missing-signature';
  return isDeliveryProblem(reason) ? reason : undefined;
}
