import { z } from 'zod';
import { catalogue, words } from '../../messages/catalogue';
import type { PerLang } from '../../messages/lang';
import { shopDateTime } from '../../messages/dates';
import { countOf, type CountWords } from '../../messages/plural';
import { stripUnsafe } from '../../law/text';
import type { LedgerEntry, LedgerRef, LedgerState } from '../core/ledger';
import type { ChatFormat } from './alert-settings';
import { entryWords } from '../pipeline/problems';
import type { SweepReport } from '../core/sweep-report';
import { buttonWords, isDeliveryProblem, purposeWords, stateLabel, type Lang } from '../words';
import type { ShopPlatform } from '../../platforms/shop-platform';
import { orderShown } from '../shop/order-shown';

/** One order that needs a person, as a message tells it. */
export interface OrderAlert {
  orderId: number;
  /** The order as its shop shows it ("#1001" on Shopify: connector/shop/order-shown.ts); absent, "#<id>". */
  shown?: string;
  purpose: string;
  state: string;
  reason: string;
  fix: string;
  /** The order's page in the console (its story and its buttons). */
  link: string;
  /** When the order entered the attention list (ISO). */
  since: string;
}

export interface WebhookAlert {
  id?: number;
  topic: string;
  status: string;
  deliveryUrl?: string;
  fix: string;
  /** Refused deliveries: the reason's code (ingest/webhook-health.ts), as data for the words. */
  refused?: string;
}

/** A shop in the art. 53 regime near (or past) the EUR 18,750 exit of DL 35/2025: told once per year and state. */
export interface RegimeAlert {
  year: number;
  /** The year's M10 invoices issued by the connector, in euros ("17000.00"). */
  total: string;
  exit: string;
  warnFrom: string;
  state: 'near' | 'past';
  /** The standing and what to plan, in the tenant's language (connector/words.ts). */
  what: string;
  fix: string;
}

export interface Digest {
  tenant: string;
  /** The shop's name as people know it (the tenant's `name`, else the shop's host); the tenant id when absent. */
  shopName?: string;
  /** The tenant's language (settings.language). */
  lang: Lang;
  /** The shop's time zone (settings.mapping.shopTimeZone): every time in the message is the shop's. */
  timeZone?: string;
  orders: OrderAlert[];
  webhooks: WebhookAlert[];
  /** The art. 53 regime's limit near or passed, when newly so. */
  regime?: RegimeAlert;
  /** Orders pending beyond this message's cap; they follow in the next digest. */
  more: number;
  /** The shop's page in the console: every order that waits for a person. */
  attentionLink: string;
}

/**
 * The reason and the fix for each needs-a-person state: one place, used by every channel. The fix
 * names the console's buttons; the order's page (the alert's link) has them.
 */
export function describeOrder(entry: LedgerEntry | null, ref: LedgerRef, lang: Lang = 'en'): Pick<OrderAlert, 'state' | 'reason' | 'fix'> {
  const state = entry?.state ?? 'unknown';
  // The pipeline recorded the problem when it flagged the order (pipeline/problems.ts): the alert
  // says the same as the order's note and the console. The table below words entries without it.
  if (entry?.problem || entry?.action) {
    const words = entryWords(lang, entry, ref, 'page');
    return { state, reason: words.reason, fix: words.action };
  }
  const words = FALLBACK[lang];
  const retry = buttonWords(lang, 'retry');
  // What an older version recorded, in its (English) words: shown as recorded.
  const recorded = entry?.detail ?? entry?.lastError;
  const why = (table: string) => (recorded ? entryWords(lang, { detail: recorded }, ref).reason : table);
  switch (state) {
    case 'duplicate-unknown-id':
      return { state, reason: why(words.unknownId), fix: words.attach(entry?.externalId ?? `wc-${ref.orderId}`, buttonWords(lang, 'attach')) };
    case 'alert-no-number':
      return { state, reason: why(words.noNumber), fix: words.checkDocument(retry) };
    case 'mapping-failed':
      return { state, reason: why(words.refused), fix: words.correct(retry) };
    case 'held':
      return { state, reason: why(words.held), fix: words.correct(retry) };
    default:
      return { state, reason: why(entry?.state ? words.state(stateLabel(lang, entry.state)) : words.unrecorded), fix: words.open(retry) };
  }
}

/** Entries flagged by versions that recorded no problem: their state in words. */
const FALLBACK: Record<Lang, { unknownId: string; unrecorded: string; noNumber: string; refused: string; held: string; state: (s: string) => string; attach: (id: string, b: string) => string; checkDocument: (b: string) => string; correct: (b: string) => string; open: (b: string) => string }> = {
  pt: {
    unknownId: 'O documento foi emitido uma vez, mas o conector não sabe o seu id.',
    unrecorded: 'O conector não tem registo do andamento desta encomenda.',
    noNumber: 'A MagniFinance não deu número ao documento a tempo.',
    refused: 'Não é possível emitir um documento para a encomenda tal como está.',
    held: 'O conector reteve a encomenda.',
    state: (s) => `A encomenda está no estado «${s}».`,
    attach: (id, b) => `Procure o documento com o ExternalId ${id} no back-office da MagniFinance; depois carregue em ${b} na página da encomenda e indique o seu id.`,
    checkDocument: (b) => `Verifique o documento no back-office da MagniFinance; depois carregue em ${b} na página da encomenda.`,
    correct: (b) => `Corrija a encomenda no WooCommerce e guarde-a; depois carregue em ${b} na página da encomenda.`,
    open: (b) => `Abra a página da encomenda para ver o que aconteceu; depois carregue em ${b}.`,
  },
  en: {
    unknownId: 'The document was issued once but its id is unknown to the connector.',
    unrecorded: "The connector has no record of this order's progress.",
    noNumber: 'MagniFinance gave the document no number in time.',
    refused: 'The order cannot be turned into a document as it stands.',
    held: 'The connector held the order.',
    state: (s) => `The order is in state "${s}".`,
    attach: (id, b) => `Find the document with ExternalId ${id} in the MagniFinance back-office, then press ${b} on the order's page and give its id.`,
    checkDocument: (b) => `Check the document in the MagniFinance back-office, then press ${b} on the order's page.`,
    correct: (b) => `Correct the order in WooCommerce and save it, then press ${b} on the order's page.`,
    open: (b) => `Open the order's page to see what happened, then press ${b}.`,
  },
};

/** The mapping's default zone (settings.mapping.shopTimeZone), for a digest that names none. */
export const DEFAULT_SHOP_ZONE = 'Europe/Lisbon';

/**
 * What the tenant's platform says of its webhooks (platforms/shop-platform.ts): where a person fixes
 * a refused delivery or a webhook that does not deliver is the platform's screen, never the connector's words.
 */
export type WebhookWords = Pick<ShopPlatform, 'deliveryProblemWords' | 'webhookFix'>;

export function describeWebhooks(report: SweepReport | null, platform: WebhookWords, lang: Lang = 'en', timeZone: string = DEFAULT_SHOP_ZONE): WebhookAlert[] {
  if (!report) return [];
  return [
    ...report.inactiveWebhooks.map((hook) => ({
      id: hook.id,
      topic: hook.topic,
      status: hook.status,
      deliveryUrl: hook.deliveryUrl,
      fix: platform.webhookFix(lang, { state: 'inactive', id: hook.id, topic: hook.topic }),
    })),
    ...report.missingTopics.map((topic) => ({ topic, status: 'missing', fix: platform.webhookFix(lang, { state: 'missing', topic }) })),
    ...refusedDeliveryAlerts(report, platform, lang, timeZone),
  ];
}

const S = z.string();
/** An instant: ISO text or milliseconds, worded in the shop's zone (`timeZone`). */
const AT = z.union([z.string(), z.number()]);

/** The alerts' sentences with facts (the shop owner's e-mail and chat): codes with typed parameters per language. */
const ALERT = catalogue({
  'deliveries-refused': words(
    { count: S, at: AT, timeZone: S },
    { pt: (p) => `${p.count} (a última a ${timeWords('pt', p.at, p.timeZone)})`, en: (p) => `${p.count} (the last on ${timeWords('en', p.at, p.timeZone)})` },
  ),
  'status-refused': words({ reason: S }, { pt: (p) => `com entregas recusadas (${p.reason})`, en: (p) => `refused (${p.reason})` }),
  'order-line': words(
    { order: S, purpose: S, state: S, since: AT, timeZone: S },
    {
      pt: (p) => `• Encomenda ${p.order}, ${p.purpose}: ${p.state} desde ${timeWords('pt', p.since, p.timeZone)}`,
      en: (p) => `• Order ${p.order}, ${p.purpose}: ${p.state} since ${timeWords('en', p.since, p.timeZone)}`,
    },
  ),
  more: words(
    { more: z.number(), link: S },
    {
      pt: (p) => `… e mais ${p.more} na próxima mensagem; todas estão na página da loja: ${p.link}`,
      en: (p) => `… and ${p.more} more in the next message; all of them are on the shop's page: ${p.link}`,
    },
  ),
});
const REFUSED_DELIVERIES: PerLang<CountWords> = { pt: { one: 'entrega recusada', other: 'entregas recusadas' }, en: { one: 'delivery refused', other: 'deliveries refused' } };
const DELIVERIES: PerLang = { pt: 'entregas', en: 'deliveries' };
const SUBJECT_WORDS: PerLang<{ orders: CountWords; webhooks: CountWords }> = {
  pt: { orders: { one: 'encomenda precisa da sua atenção', other: 'encomendas precisam da sua atenção' }, webhooks: { one: 'problema nos webhooks da loja', other: 'problemas nos webhooks da loja' } },
  en: { orders: { one: 'order needs your attention', other: 'orders need your attention' }, webhooks: { one: 'shop webhook problem', other: 'shop webhook problems' } },
};
const REGIME_SUBJECT: PerLang<Record<RegimeAlert['state'], string>> = {
  pt: { near: 'o limite do regime do art. 53.º está perto', past: 'o limite do regime do art. 53.º foi ultrapassado' },
  en: { near: "the art. 53 regime's limit is near", past: "the art. 53 regime's limit is passed" },
};
const LABELS = {
  connector: { pt: 'Conector MagniFinance', en: 'MagniFinance connector' },
  why: { pt: 'Porquê', en: 'Why' },
  whatToDo: { pt: 'O que fazer', en: 'What to do' },
  orderPage: { pt: 'Página da encomenda', en: 'Order page' },
  shopPage: { pt: 'Página da loja', en: "The shop's page" },
} satisfies Record<string, PerLang>;

/** Deliveries refused in the last hour (ingest/webhook-health.ts): told once per reason while they go on. */
function refusedDeliveryAlerts(report: SweepReport, platform: WebhookWords, lang: Lang, timeZone: string): WebhookAlert[] {
  return (report.refusedDeliveries ?? []).flatMap((refused) => {
    if (!isDeliveryProblem(refused.reason)) return [];
    const words = platform.deliveryProblemWords(lang, refused.reason);
    const count = ALERT.say(lang, 'deliveries-refused', { count: countOf(lang, refused.count, REFUSED_DELIVERIES[lang]), at: refused.lastAt, timeZone });
    const cause = words.cause.charAt(0).toUpperCase() + words.cause.slice(1);
    return [{ topic: DELIVERIES[lang], status: `refused (${refused.reason})`, refused: refused.reason, fix: `${count}. ${cause}. ${words.fix}` }];
  });
}

/** An ISO time (or ms) as the shop's clock shows it ("25/11/2026, 02:10" in Lisbon); anything else as it came. */
function timeWords(lang: Lang, at: string | number, timeZone: string): string {
  const date = new Date(typeof at === 'number' || /^\d+$/.test(at) ? Number(at) : at);
  if (Number.isNaN(date.getTime())) return String(at);
  return shopDateTime(lang, date, timeZone);
}

/** A webhook's status (WooCommerce's word, or ours) in the reader's words. */
const WEBHOOK_STATUS: Record<string, Record<Lang, string>> = {
  active: { pt: 'ativo', en: 'active' },
  paused: { pt: 'em pausa', en: 'paused' },
  disabled: { pt: 'desativado', en: 'disabled' },
  missing: { pt: 'em falta', en: 'missing' },
};

function webhookStatusWords(lang: Lang, hook: WebhookAlert): string {
  if (hook.refused !== undefined) return ALERT.say(lang, 'status-refused', { reason: hook.refused });
  return WEBHOOK_STATUS[hook.status]?.[lang] ?? hook.status;
}

/** A stable key of the webhook findings: the same findings are told once, a change is told again. */
export function webhooksKey(webhooks: WebhookAlert[]): string {
  return webhooks
    .map((hook) => `${hook.id ?? ''}/${hook.topic}/${hook.status}`)
    .sort()
    .join(',');
}

export function subjectOf(digest: Digest): string {
  const lang = digest.lang;
  const parts = [];
  const orders = digest.orders.length + digest.more;
  if (orders > 0) parts.push(countOf(lang, orders, SUBJECT_WORDS[lang].orders));
  const hooks = digest.webhooks.length;
  if (hooks > 0) parts.push(countOf(lang, hooks, SUBJECT_WORDS[lang].webhooks));
  if (digest.regime) parts.push(REGIME_SUBJECT[lang][digest.regime.state]);
  return `[${LABELS.connector[lang]}] ${digest.shopName ?? digest.tenant}: ${parts.join('; ')}`;
}

/**
 * Customer data (names, addresses, what the shop stored) reaches the reasons and fixes: in a chat it
 * must stay text. Slack reads `<!channel>`, `<@U123>` and `<https://…|disguised link>`, so `& < >`
 * become entities; Teams reads Markdown and some HTML, so its markup characters are escaped with a
 * backslash and `& < >` become entities. Every channel drops control characters, escapes and bidi
 * overrides (law/text.ts). Our own links and templates are not escaped.
 */
export function escapeForChat(text: string, format: ChatFormat): string {
  const safe = stripUnsafe(text, 'keep-lines');
  if (format === 'plain') return safe;
  const entities = safe.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (format === 'slack') return entities;
  return entities.replace(/[\\`*_[\]()#|~]/g, (c) => `\\${c}`);
}

/** Plain text: the e-mail body and the `text` of the chat message (escaped for `format`). */
export function textOf(digest: Digest, format: ChatFormat = 'plain'): string {
  const lang = digest.lang;
  const esc = (text: string) => escapeForChat(text, format);
  const lines = [subjectOf(digest), ''];
  for (const order of digest.orders) {
    const state = stateLabel(lang, order.state as LedgerState);
    // The number is the shop's text (a Shopify store names its orders with its own prefix).
    lines.push(ALERT.say(lang, 'order-line', { order: esc(order.shown ?? orderShown(order.orderId)), purpose: purposeWords(lang, order.purpose), state, since: order.since, timeZone: digest.timeZone ?? DEFAULT_SHOP_ZONE }));
    lines.push(`  ${LABELS.why[lang]}: ${esc(order.reason)}`);
    lines.push(`  ${LABELS.whatToDo[lang]}: ${esc(order.fix)}`);
    lines.push(`  ${LABELS.orderPage[lang]}: ${order.link}`);
  }
  if (digest.more > 0) {
    lines.push(ALERT.say(lang, 'more', { more: digest.more, link: digest.attentionLink }));
  }
  for (const hook of digest.webhooks) {
    const status = webhookStatusWords(lang, hook);
    const where = hook.deliveryUrl ? ` (${esc(hook.deliveryUrl)})` : '';
    const name = hook.id === undefined ? esc(hook.topic) : `${hook.id} ${esc(hook.topic)}`;
    lines.push(`• Webhook ${name}: ${esc(status)}${where}`);
    lines.push(`  ${LABELS.whatToDo[lang]}: ${esc(hook.fix)}`);
  }
  if (digest.regime) {
    lines.push(`• ${digest.regime.what}`);
    lines.push(`  ${LABELS.whatToDo[lang]}: ${digest.regime.fix}`);
  }
  if (digest.orders.length === 0 && digest.more === 0) lines.push('', `${LABELS.shopPage[lang]}: ${digest.attentionLink}`);
  return lines.join('\n');
}
