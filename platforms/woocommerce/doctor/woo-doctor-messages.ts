import { z } from 'zod';
import { catalogue, fixed, inEveryLang, words } from '../../../messages/catalogue';
import type { Lang, PerLang } from '../../../messages/lang';
import { percentWords } from '../../../messages/numbers';
import { countOf } from '../../../messages/plural';
import { DISPATCH_REGIONS, type DispatchRegion } from '../../../law/vat-rates';

/**
 * What WooCommerce itself puts before the operator (the person who sets the connector up, an
 * agency's or the shop's own), by code with typed parameters, in English and European Portuguese
 * (messages/catalogue.ts): the doctor's checks of the shop's REST key, tax settings, rates, NIF meta
 * key and webhooks, and where in WooCommerce's admin a fix is made. The connector never words a
 * WooCommerce screen itself: it asks the platform (platforms/shop-platform.ts), so a Shopify tenant
 * never reads these.
 */

const S = z.string();
const N = z.number();
const IDS = z.array(N);
const REGION = z.enum(DISPATCH_REGIONS);

/** WooCommerce's admin pages, as each language's WooCommerce names them. */
const KEYS_PAGE: PerLang = { en: 'WooCommerce > Settings > Advanced > REST API', pt: 'WooCommerce > Definições > Avançado > API REST' };
const WEBHOOKS_PAGE: PerLang = { en: 'WooCommerce > Settings > Advanced > Webhooks', pt: 'WooCommerce > Definições > Avançado > Webhooks' };

/** A webhook's topic as WooCommerce's "Topic" menu names it (anything else as the API writes it). */
const TOPIC_LABELS: Record<string, PerLang> = {
  'order.created': { en: 'Order created', pt: 'Encomenda criada' },
  'order.updated': { en: 'Order updated', pt: 'Encomenda atualizada' },
  'product.updated': { en: 'Product updated', pt: 'Produto atualizado' },
  'product.deleted': { en: 'Product deleted', pt: 'Produto eliminado' },
};
const topicLabel = (lang: Lang, topic: string): string => TOPIC_LABELS[topic]?.[lang] ?? topic;

/** A webhook's status as WooCommerce's list shows it in Portuguese (the API's slug in English). */
const STATUS_PT: Record<string, string> = { active: 'ativo', paused: 'em pausa', disabled: 'desativado' };

/** The region a shop dispatches from, as a sentence names it ("not the 23% of mainland Portugal"). */
const REGION_NAMES: Record<DispatchRegion, PerLang> = {
  mainland: { en: 'mainland Portugal', pt: 'Portugal continental' },
  madeira: { en: 'Madeira', pt: 'a Madeira' },
  azores: { en: 'the Azores', pt: 'os Açores' },
};
/** The region of a buyer the rates check stands in for, as a check's name says it. */
const BUYER_REGIONS: Record<DispatchRegion, PerLang> = {
  mainland: { en: 'mainland', pt: 'continente' },
  madeira: { en: 'Madeira', pt: 'Madeira' },
  azores: { en: 'Azores', pt: 'Açores' },
};

/** Where the shop dispatches from, and how the doctor knows it. */
const SHIPS_FROM = { region: REGION, fromSetting: z.boolean() };
const shipsFrom = {
  en: (p: { region: DispatchRegion; fromSetting: boolean }): string => `the shop dispatches from ${REGION_NAMES[p.region].en}${p.fromSetting ? ' (dispatchRegion)' : ' (its store address)'}`,
  pt: (p: { region: DispatchRegion; fromSetting: boolean }): string => `a loja expede de ${REGION_NAMES[p.region].pt}${p.fromSetting ? ' (dispatchRegion)' : ' (a sua morada)'}`,
};

const rateId = (p: { rateId: number; rateName: string }): string => `${p.rateId}${p.rateName ? ` "${p.rateName}"` : ''}`;
const list = (ids: readonly (number | string)[]): string => ids.join(', ');
const ORDERS: PerLang<{ one: string; other: string }> = { en: { one: 'order', other: 'orders' }, pt: { one: 'encomenda', other: 'encomendas' } };
const MINUTES: PerLang<{ one: string; other: string }> = { en: { one: 'minute', other: 'minutes' }, pt: { one: 'minuto', other: 'minutos' } };
/** "the last 20 orders" / "as últimas 20 encomendas", and one order without a count. */
const lastOrders = {
  en: (orders: number): string => (orders === 1 ? 'the last order' : `the last ${countOf('en', orders, ORDERS.en)}`),
  pt: (orders: number): string => (orders === 1 ? 'a última encomenda' : `as últimas ${countOf('pt', orders, ORDERS.pt)}`),
};

export const WOO_DOCTOR = catalogue({
  // Any call to the shop's REST API (shopCallProblem).
  'unexpected-error': words({ error: S }, { en: (p) => `unexpected error: ${p.error}`, pt: (p) => `erro inesperado: «${p.error}»` }),
  'report-it-fix': fixed({ en: 'Run the doctor again; if it persists, report it with this message.', pt: 'Volte a correr o doctor; se continuar, comunique-o com esta mensagem.' }),
  'shop-silent': words({ url: S, error: S }, { en: (p) => `no answer from ${p.url}: ${p.error}`, pt: (p) => `${p.url} não respondeu («${p.error}»)` }),
  'shop-silent-fix': fixed({ en: "Check shop.url (the shop's address, https://...) and that this machine can reach it.", pt: 'Verifique shop.url (o endereço da loja, https://...) e se esta máquina lhe chega.' }),
  'key-may-not-read': words({ error: S }, { en: (p) => `the key may not read: ${p.error}`, pt: () => 'a chave não tem permissão de leitura (401)' }),
  'read-write-fix': fixed({ en: `In ${KEYS_PAGE.en}, edit the key and set Permissions to Read/Write.`, pt: `Em ${KEYS_PAGE.pt}, edite a chave e ponha as Permissões em Ler/Escrever.` }),
  'key-refused': words({ error: S, code: S }, { en: (p) => `the shop refused the REST key: ${p.error}`, pt: (p) => `a loja recusou a chave da API REST (401${p.code ? `, ${p.code}` : ''})` }),
  'key-refused-fix': fixed({
    en: `Copy the consumer key and secret of a Read/Write key from ${KEYS_PAGE.en} into shop.consumerKey and shop.consumerSecret (WooCommerce shows a secret only once: if it is lost, add a new key).`,
    pt: `Copie a chave e o segredo de cliente de uma chave Ler/Escrever de ${KEYS_PAGE.pt} para shop.consumerKey e shop.consumerSecret (o WooCommerce só mostra o segredo uma vez: se o perdeu, crie uma chave nova).`,
  }),
  'no-rest-api': words(
    { url: S, error: S },
    { en: (p) => `no WooCommerce REST API at ${p.url}/wp-json/wc/v3: ${p.error}`, pt: (p) => `não há API REST do WooCommerce em ${p.url}/wp-json/wc/v3 (404 rest_no_route)` },
  ),
  'no-rest-api-fix': fixed({
    en: 'Check shop.url, that WooCommerce is active, and WordPress > Settings > Permalinks is not "Plain".',
    pt: 'Verifique shop.url, se o WooCommerce está ativo e se em WordPress > Definições > Ligações permanentes não está "Simples".',
  }),
  forbidden: words({ error: S, code: S }, { en: (p) => p.error, pt: (p) => `a loja recusou o pedido (403${p.code ? `, ${p.code}` : ''})` }),
  'forbidden-fix': fixed({
    en: `The key's user must be an administrator or shop manager: in ${KEYS_PAGE.en}, add a key for such a user.`,
    pt: `O utilizador da chave tem de ser administrador ou gestor de loja: em ${KEYS_PAGE.pt}, crie uma chave para um utilizador assim.`,
  }),
  'http-error': words({ error: S, status: N, code: S }, { en: (p) => p.error, pt: (p) => `a loja respondeu HTTP ${p.status}${p.code ? ` (${p.code})` : ''}` }),
  'http-error-fix': fixed({ en: 'Check the shop is up (WooCommerce > Status) and run the doctor again.', pt: 'Confirme que a loja está a funcionar (WooCommerce > Estado) e volte a correr o doctor.' }),
  'run-again-fix': fixed({ en: 'Run the doctor again.', pt: 'Volte a correr o doctor.' }),

  // The REST key reads (system_status) and WooCommerce's version.
  'read-name': fixed({ en: 'REST key (read)', pt: 'Chave REST (leitura)' }),
  accepted: fixed({ en: 'accepted', pt: 'aceite' }),
  'version-name': fixed({ en: 'WooCommerce version', pt: 'Versão do WooCommerce' }),
  'version-unreadable': fixed({ en: 'system_status has no environment.version', pt: 'o system_status não tem environment.version' }),
  'version-unreadable-fix': fixed({ en: 'Open WooCommerce > Status and check the version is 3.7 or later.', pt: 'Abra WooCommerce > Estado e confirme que a versão é 3.7 ou posterior.' }),
  'version-old': words(
    { version: S },
    {
      en: (p) => `${p.version}: before 3.7 orders carry no tax_lines[].rate_percent, so rates are derived from amounts`,
      pt: (p) => `${p.version}: antes da 3.7 as encomendas não trazem tax_lines[].rate_percent, por isso as taxas são deduzidas dos valores`,
    },
  ),
  'version-old-fix': fixed({ en: 'Update WooCommerce (Dashboard > Updates).', pt: 'Atualize o WooCommerce (Painel > Atualizações).' }),

  // The REST key writes (a PUT of order 0).
  'write-name': fixed({ en: 'REST key (write)', pt: 'Chave REST (escrita)' }),
  'write-ok': fixed({ en: 'accepted (checked with a PUT of order 0, which does not exist: nothing changed)', pt: 'aceite (verificado com um PUT da encomenda 0, que não existe: nada mudou)' }),
  'write-read-only': fixed({
    en: 'the key is read-only: the connector could not write the document number, PDF link and notes on orders',
    pt: 'a chave só permite ler: o conector não poderia escrever nas encomendas o número do documento, a ligação do PDF e as notas',
  }),
  'write-unexpected': fixed({ en: 'PUT orders/0 succeeded, which WooCommerce never does', pt: 'o PUT orders/0 foi aceite, o que o WooCommerce nunca faz' }),
  'write-unexpected-fix': fixed({ en: 'Check that shop.url is a WooCommerce shop.', pt: 'Confirme que shop.url é uma loja WooCommerce.' }),

  // Tax settings.
  'round-name': fixed({ en: 'Round tax at subtotal level', pt: 'Arredondar imposto ao nível do subtotal' }),
  'round-on': fixed({ en: 'on: the shop rounds VAT once per rate, as the invoice does', pt: 'ligado: a loja arredonda o IVA uma vez por taxa, como a fatura' }),
  'round-off': fixed({
    en: 'off: the shop rounds VAT per line, the invoice once per rate, so some totals differ by a cent (the connector then moves a line by a cent, or issues the nearest total and shows the difference)',
    pt: 'desligado: a loja arredonda o IVA linha a linha e a fatura uma vez por taxa, por isso alguns totais diferem num cêntimo (o conector acerta então uma linha num cêntimo, ou emite o total mais próximo e mostra a diferença)',
  }),
  'round-off-fix': fixed({
    en: 'WooCommerce > Settings > Tax > turn on "Round tax at subtotal level" (docs/accountant.md, Totals and rounding).',
    pt: 'Em WooCommerce > Definições > Impostos, ative "Arredondar imposto ao nível do subtotal" (docs/accountant.md, Totais e arredondamentos).',
  }),
  'inclusive-name': fixed({ en: 'Prices entered with tax', pt: 'Preços com IVA incluído' }),
  'inclusive-yes': fixed({
    en: 'yes: net unit prices on the invoice keep up to 10 decimals (mapping.taxInclusiveUnitPrice)',
    pt: 'sim: os preços unitários sem IVA na fatura guardam até 10 casas decimais (mapping.taxInclusiveUnitPrice)',
  }),
  'inclusive-no': fixed({ en: 'no: prices are entered without VAT', pt: 'não: os preços são introduzidos sem IVA' }),

  // The Portuguese standard rates, per region of the buyer.
  'rates-name': fixed({ en: 'Portuguese VAT rates', pt: 'Taxas de IVA portuguesas' }),
  'rates-unexpected': words({ error: S }, { en: (p) => `unexpected answer of GET taxes: ${p.error}`, pt: () => 'resposta inesperada de GET taxes' }),
  'rates-unexpected-fix': fixed({ en: 'Check WooCommerce > Settings > Tax by hand.', pt: 'Verifique à mão WooCommerce > Definições > Impostos.' }),
  'rate-name': words({ buyer: REGION }, { en: (p) => `VAT rate ${BUYER_REGIONS[p.buyer].en}`, pt: (p) => `Taxa de IVA ${BUYER_REGIONS[p.buyer].pt}` }),
  'rate-ok': words(
    { normal: S, rateId: N, rateName: S, ...SHIPS_FROM },
    {
      en: (p) => `${percentWords('en', p.normal)} (rate id ${rateId(p)}): ${shipsFrom.en(p)}`,
      pt: (p) => `${percentWords('pt', p.normal)} (taxa ${rateId(p)}): ${shipsFrom.pt(p)}`,
    },
  ),
  'rate-missing-mainland': fixed({
    en: 'no standard tax rate for Portugal: orders would carry no VAT, and the invoice needs the rate of every line',
    pt: 'não há taxa normal para Portugal: as encomendas viriam sem IVA, e a fatura precisa da taxa de cada linha',
  }),
  'rate-missing': words({ postcode: S }, { en: (p) => `no rate for a buyer at postcode ${p.postcode}`, pt: (p) => `não há taxa para um comprador com o código postal ${p.postcode}` }),
  'rate-other': words(
    { postcode: S, paid: S, rateId: N, normal: S, held: z.boolean(), ...SHIPS_FROM },
    {
      en: (p) =>
        `a buyer at postcode ${p.postcode} pays ${percentWords('en', p.paid)} (rate id ${p.rateId}), not the ${percentWords('en', p.normal)} of ${REGION_NAMES[p.region].en}: ${shipsFrom.en(p)}${p.held ? '; such orders are held' : ''}`,
      pt: (p) =>
        `um comprador com o código postal ${p.postcode} paga ${percentWords('pt', p.paid)} (taxa ${p.rateId}), e não os ${percentWords('pt', p.normal)} de ${REGION_NAMES[p.region].pt}: ${shipsFrom.pt(p)}${p.held ? '; essas encomendas ficam retidas' : ''}`,
    },
  ),
  'rates-fix': words(
    { normal: S },
    {
      en: (p) =>
        `WooCommerce > Settings > Tax > Standard rates: one row Country code PT, no postcode, Rate % ${p.normal}, Name IVA, Shipping ticked; delete rows that give 9xxx postcodes another rate (goods are taxed where they ship from, CIVA art. 6(1); DL 347/85 was revoked in 2022).`,
      pt: (p) =>
        `Em WooCommerce > Definições > Impostos > Taxas normais: uma linha com o código de país PT, sem código postal, Taxa % ${p.normal}, Nome IVA, Envio assinalado; apague as linhas que dão outra taxa aos códigos postais 9xxx (os bens são tributados no lugar de onde são expedidos, art. 6.º, n.º 1, do CIVA; o DL 347/85 foi revogado em 2022).`,
    },
  ),

  // The NIF meta key on the last orders.
  'nif-name': fixed({ en: 'NIF meta key', pt: 'Campo meta do NIF' }),
  'orders-unexpected': fixed({ en: 'unexpected answer of GET orders', pt: 'resposta inesperada de GET orders' }),
  'no-orders': fixed({ en: 'the shop has no orders yet', pt: 'a loja ainda não tem encomendas' }),
  'no-orders-fix': fixed({ en: 'Place a test order with a NIF and run the doctor again.', pt: 'Faça uma encomenda de teste com um NIF e volte a correr o doctor.' }),
  'nif-found': words(
    { keys: z.array(S), found: N, orders: N },
    {
      en: (p) => `${list(p.keys)} found on ${p.orders === 1 ? 'the last order' : `${p.found} of ${lastOrders.en(p.orders)}`}`,
      pt: (p) => `${list(p.keys)} ${p.keys.length === 1 ? 'encontrado' : 'encontrados'} ${p.orders === 1 ? 'na última encomenda' : `em ${p.found} das últimas ${countOf('pt', p.orders, ORDERS.pt)}`}`,
    },
  ),
  'nif-missing': words(
    { orders: N, keys: z.array(S), lookalikes: z.array(S) },
    {
      en: (p) =>
        `${p.orders === 1 ? 'the last order has no NIF' : `none of ${lastOrders.en(p.orders)} has a NIF`} under ${list(p.keys)}${p.lookalikes.length > 0 ? `; keys that look like one: ${list(p.lookalikes)}` : ''}. Buyers' NIFs would be left off their invoices`,
      pt: (p) =>
        `${p.orders === 1 ? 'a última encomenda não tem NIF' : `nenhuma das últimas ${countOf('pt', p.orders, ORDERS.pt)} tem NIF`} em ${list(p.keys)}${p.lookalikes.length > 0 ? `; campos que parecem sê-lo: ${list(p.lookalikes)}` : ''}. Os NIF dos compradores ficariam fora das faturas`,
    },
  ),
  'nif-lookalike-fix': words(
    { lookalikes: z.array(S) },
    {
      en: (p) => `Add the key your checkout uses to settings.mapping.nifMetaKeys (e.g. nifMetaKeys: [${list(p.lookalikes.map((k) => `"${k}"`))}]).`,
      pt: (p) => `Acrescente a settings.mapping.nifMetaKeys o campo que o seu checkout usa (por exemplo, nifMetaKeys: [${list(p.lookalikes.map((k) => `"${k}"`))}]).`,
    },
  ),
  'nif-missing-fix': fixed({
    en: "Find the meta key your checkout's NIF field writes (an order with a NIF, Custom fields box) and list it in settings.mapping.nifMetaKeys; if none of these buyers gave a NIF, check again after one does.",
    pt: 'Descubra o campo meta onde o campo NIF do seu checkout escreve (numa encomenda com NIF, caixa Campos personalizados) e indique-o em settings.mapping.nifMetaKeys; se nenhum destes compradores deu NIF, verifique de novo depois de um o dar.',
  }),

  // The shop's webhooks.
  'webhooks-name': fixed({ en: 'webhooks', pt: 'webhooks' }),
  'webhook-name': words({ topic: S }, { en: (p) => `webhook ${p.topic}`, pt: (p) => `webhook ${p.topic}` }),
  'webhooks-unlisted': words({ detail: S }, { en: (p) => `could not list the shop's webhooks: ${p.detail}`, pt: (p) => `não foi possível listar os webhooks da loja: ${p.detail}` }),
  'add-webhook-fix': words(
    { topic: S, url: S },
    {
      en: (p) => `In ${WEBHOOKS_PAGE.en} > Add webhook: Status Active, Topic ${topicLabel('en', p.topic)}, Delivery URL ${p.url}, Secret = shop.webhookSecret, API version WP REST API Integration v3.`,
      pt: (p) => `Em ${WEBHOOKS_PAGE.pt} > Adicionar webhook: Estado Ativo, Tópico ${topicLabel('pt', p.topic)}, URL de entrega ${p.url}, Segredo = shop.webhookSecret, Versão da API WP REST API Integration v3.`,
    },
  ),
  'webhook-ok': words({ url: S, ids: IDS }, { en: (p) => `active, delivers to ${p.url} (webhook ${list(p.ids)})`, pt: (p) => `ativo, entrega em ${p.url} (webhook ${list(p.ids)})` }),
  'webhook-missing': words({ topic: S }, { en: (p) => `missing: the shop sends no ${p.topic} to anyone`, pt: (p) => `em falta: a loja não envia ${p.topic} a ninguém` }),
  'webhook-inactive': words(
    { hooks: z.array(z.object({ id: N, status: S })) },
    {
      en: (p) => `${p.hooks.map((hook) => `webhook ${hook.id} is ${hook.status}`).join(', ')}: nothing is delivered`,
      pt: (p) => `${p.hooks.map((hook) => `o webhook ${hook.id} está ${STATUS_PT[hook.status] ?? hook.status}`).join(', ')}: nada é entregue`,
    },
  ),
  'webhook-inactive-fix': words(
    { url: S },
    {
      en: (p) => `In ${WEBHOOKS_PAGE.en}, open it, point it at ${p.url} if it is not, and set Status to Active (WooCommerce disables a webhook after more than 5 failed deliveries in a row: the sweep catches up the orders it missed).`,
      pt: (p) => `Em ${WEBHOOKS_PAGE.pt}, abra-o, aponte-o para ${p.url} se ainda não estiver e ponha o Estado em Ativo (o WooCommerce desativa um webhook depois de mais de 5 entregas falhadas seguidas: a sincronização apanha as encomendas que lhe escaparam).`,
    },
  ),
  'webhook-elsewhere': words(
    { hooks: z.array(z.object({ id: N, url: S })) },
    {
      en: (p) => `${p.hooks.map((hook) => `webhook ${hook.id} delivers to ${hook.url}`).join(', ')}, not to this connector`,
      pt: (p) => `${p.hooks.map((hook) => `o webhook ${hook.id} entrega em ${hook.url}`).join(', ')}, não neste conector`,
    },
  ),
  'webhook-elsewhere-fix': words(
    { url: S, tenant: S },
    {
      en: (p) => `In ${WEBHOOKS_PAGE.en}, set its Delivery URL to ${p.url} (server.publicUrl + /webhooks/woocommerce/${p.tenant}).`,
      pt: (p) => `Em ${WEBHOOKS_PAGE.pt}, ponha no URL de entrega ${p.url} (server.publicUrl + /webhooks/woocommerce/${p.tenant}).`,
    },
  ),
  'product-webhook-ok': words(
    { url: S, ids: IDS },
    {
      en: (p) => `active, delivers to ${p.url} (webhook ${list(p.ids)}): a changed product is read again at once`,
      pt: (p) => `ativo, entrega em ${p.url} (webhook ${list(p.ids)}): um produto alterado é lido de novo de imediato`,
    },
  ),
  'product-webhook-missing': words(
    { topic: S, url: S, minutes: N },
    {
      en: (p) =>
        `no active ${p.topic} webhook delivers to ${p.url}: a product made virtual, moved to another category or deleted reaches invoices only when the connector's copy of it expires (up to ${countOf('en', p.minutes, MINUTES.en)})`,
      pt: (p) =>
        `nenhum webhook ${p.topic} ativo entrega em ${p.url}: um produto tornado virtual, mudado de categoria ou eliminado só chega às faturas quando a cópia do conector expira (até ${countOf('pt', p.minutes, MINUTES.pt)})`,
    },
  ),
  'secret-name': fixed({ en: 'webhook secret', pt: 'Segredo dos webhooks' }),
  'secret-hidden': fixed({ en: "WooCommerce's REST API does not show a webhook's secret", pt: 'a API REST do WooCommerce não mostra o segredo de um webhook' }),
  'secret-hidden-fix': fixed({
    en: `In ${WEBHOOKS_PAGE.en}, check that the Secret of each webhook above equals shop.webhookSecret. A wrong secret shows as 401 bad-signature refusals in the connector's log (magnifinance_webhooks_refused_total).`,
    pt: `Em ${WEBHOOKS_PAGE.pt}, confirme que o Segredo de cada webhook acima é igual a shop.webhookSecret. Um segredo errado aparece como recusas 401 bad-signature no registo do conector (magnifinance_webhooks_refused_total).`,
  }),
  'secret-ok': words({ ids: IDS }, { en: (p) => `equal to shop.webhookSecret (webhook ${list(p.ids)})`, pt: (p) => `igual a shop.webhookSecret (webhook ${list(p.ids)})` }),
  'secret-wrong': words(
    { ids: IDS },
    {
      en: (p) => `webhook ${list(p.ids)} signs with another secret than shop.webhookSecret: the connector refuses its deliveries (401)`,
      pt: (p) => `o webhook ${list(p.ids)} assina com um segredo diferente de shop.webhookSecret: o conector recusa as suas entregas (401)`,
    },
  ),
  'secret-wrong-fix': words(
    { ids: IDS },
    {
      en: (p) => `In ${WEBHOOKS_PAGE.en}, set the Secret of webhook ${list(p.ids)} to the value of shop.webhookSecret (or the other way round).`,
      pt: (p) => `Em ${WEBHOOKS_PAGE.pt}, ponha no Segredo do webhook ${list(p.ids)} o valor de shop.webhookSecret (ou o contrário).`,
    },
  ),
  'api-version-name': fixed({ en: 'webhook API version', pt: 'Versão da API dos webhooks' }),
  'api-version-hidden': fixed({ en: "WooCommerce's REST API does not show a webhook's API version", pt: 'a API REST do WooCommerce não mostra a versão da API de um webhook' }),
  'api-version-hidden-fix': fixed({
    en: `In ${WEBHOOKS_PAGE.en}, check that each webhook above has API version "WP REST API Integration v3". Another version sends another payload, refused as 400 invalid-payload in the connector's log.`,
    pt: `Em ${WEBHOOKS_PAGE.pt}, confirme que cada webhook acima tem a versão da API "WP REST API Integration v3". Outra versão envia outro conteúdo, recusado como 400 invalid-payload no registo do conector.`,
  }),
  'api-version-ok': words({ ids: IDS }, { en: (p) => `v3 (webhook ${list(p.ids)})`, pt: (p) => `v3 (webhook ${list(p.ids)})` }),
  'api-version-old': words(
    { hooks: z.array(z.object({ id: N, version: S })) },
    {
      en: (p) => `${p.hooks.map((hook) => `webhook ${hook.id} uses ${hook.version}`).join(', ')}: its payload is not the v3 order the connector reads`,
      pt: (p) => `${p.hooks.map((hook) => `o webhook ${hook.id} usa ${hook.version}`).join(', ')}: o seu conteúdo não é a encomenda v3 que o conector lê`,
    },
  ),
  'api-version-old-fix': words(
    { ids: IDS },
    {
      en: (p) => `In ${WEBHOOKS_PAGE.en}, open webhook ${list(p.ids)} and set API version to "WP REST API Integration v3".`,
      pt: (p) => `Em ${WEBHOOKS_PAGE.pt}, abra o webhook ${list(p.ids)} e ponha a versão da API em "WP REST API Integration v3".`,
    },
  ),

  // The sweep's log when order webhooks stopped delivering (connector/sweep, through the platform port).
  'webhooks-off-fix': fixed({ en: `re-enable them in ${WEBHOOKS_PAGE.en}`, pt: `reative-os em ${WEBHOOKS_PAGE.pt}` }),
});

/** A WooCommerce doctor entry worded in every language (a check keeps both). */
export const wooSays = inEveryLang(WOO_DOCTOR);
