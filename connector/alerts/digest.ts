import { stripUnsafe } from '../../webhooks/woocommerce/text';
import type { LedgerEntry, LedgerRef, LedgerState } from '../ledger';
import type { ChatFormat } from './alert-settings';
import { entryWords } from '../pipeline/problems';
import type { SweepReport } from '../sweep';
import { deliveryProblemWords, isDeliveryProblem, purposeWords, stateLabel, type Lang } from '../words';

/** One order that needs a person, as a message tells it. */
export interface OrderAlert {
  orderId: number;
  purpose: string;
  state: string;
  reason: string;
  fix: string;
  /** The admin API entry of the order (ledger, jobs, and the retry/attach routes next to it). */
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
}

export interface Digest {
  tenant: string;
  /** The tenant's language (settings.language). */
  lang: Lang;
  orders: OrderAlert[];
  webhooks: WebhookAlert[];
  /** Orders pending beyond this message's cap; they follow in the next digest. */
  more: number;
  attentionLink: string;
}

/** The reason and the fix for each needs-a-person state: one place, used by every channel. */
export function describeOrder(entry: LedgerEntry | null, ref: LedgerRef, link: string, lang: Lang = 'en'): Pick<OrderAlert, 'state' | 'reason' | 'fix'> {
  const { orderId, purpose } = ref;
  const state = entry?.state ?? 'unknown';
  const detail = entry?.detail ?? entry?.lastError;
  // The pipeline wrote why and what to do when it flagged the order (pipeline/problems.ts): the
  // alert says the same as the order note and the console. The table below words entries without it.
  if (entry?.action) {
    const words = lang === 'en' ? { reason: detail ?? `the order is in state ${state}`, action: entry.action } : entryWords(lang, entry, ref);
    return { state, reason: words.reason, fix: words.action };
  }
  const pt = lang === 'pt';
  const retry = pt ? `depois POST ${link}/retry` : `then POST ${link}/retry`;
  const with_ = (text: string) => (detail ? `${text} (${detail})` : text);
  switch (state) {
    case 'duplicate-unknown-id':
      return {
        state,
        reason: with_(pt ? 'o documento foi emitido uma vez mas o seu id é desconhecido' : 'the document was issued once but its id is unknown'),
        fix: `${pt ? 'procure o documento com o ExternalId' : 'find the document with ExternalId'} ${entry?.externalId ?? `wc-${orderId}`} ${pt ? 'no back-office da MagniFinance e associe o seu id' : 'in the MagniFinance back-office and attach its id'}: POST ${link}/attach {"purpose":"${purpose}","documentId":<id>}`,
      };
    case 'alert-no-number':
      return { state, reason: with_(pt ? 'o serviço de faturação não deu número a tempo' : 'the invoicing service gave no number in time'), fix: `${pt ? 'verifique o documento no back-office da MagniFinance' : 'check the document in the MagniFinance back-office'}, ${retry}` };
    case 'mapping-failed':
      return { state, reason: detail ?? (pt ? 'a encomenda não dá um documento legal' : 'the order cannot be mapped to a legal document'), fix: `${pt ? 'corrija a encomenda no WooCommerce como diz o motivo' : 'correct the order in WooCommerce as the reason says'}, ${retry}` };
    case 'held':
      return { state, reason: detail ?? (pt ? 'o mapeamento reteve a encomenda' : 'the mapping held the order'), fix: `${pt ? 'reveja a encomenda no WooCommerce' : 'review the order in WooCommerce'}, ${retry}` };
    default:
      return { state, reason: detail ?? (pt ? `a encomenda está no estado ${state}` : `the order is in state ${state}`), fix: `${pt ? `abra ${link} para ver o registo e as tarefas` : `open ${link} for the ledger and the jobs`}, ${retry}` };
  }
}

export function describeWebhooks(report: SweepReport | null, lang: Lang = 'en'): WebhookAlert[] {
  if (!report) return [];
  const pt = lang === 'pt';
  return [
    ...report.inactiveWebhooks.map((hook) => ({
      id: hook.id,
      topic: hook.topic,
      status: hook.status,
      deliveryUrl: hook.deliveryUrl,
      fix: pt
        ? `WooCommerce > Definições > Avançado > Webhooks: volte a pôr o webhook ${hook.id} (${hook.topic}) Ativo; a sincronização apanha as encomendas que lhe escaparam`
        : `WooCommerce > Settings > Advanced > Webhooks: set webhook ${hook.id} (${hook.topic}) back to Active; the sweep catches the orders it missed`,
    })),
    ...report.missingTopics.map((topic) => ({
      topic,
      status: 'missing',
      fix: pt ? `adicione um webhook ${topic} Ativo que aponte para o conector (docs/connector.md)` : `add an Active ${topic} webhook pointing at the connector (docs/connector.md)`,
    })),
    ...refusedDeliveryAlerts(report, lang),
  ];
}

/** Deliveries refused in the last hour (ingest/webhook-health.ts): told once per reason while they go on. */
function refusedDeliveryAlerts(report: SweepReport, lang: Lang): WebhookAlert[] {
  return (report.refusedDeliveries ?? []).flatMap((refused) => {
    if (!isDeliveryProblem(refused.reason)) return [];
    const words = deliveryProblemWords(lang, refused.reason);
    const count = lang === 'pt' ? `${refused.count} entrega(s) recusada(s), a última às ${refused.lastAt}` : `${refused.count} deliver${refused.count === 1 ? 'y' : 'ies'} refused, the last at ${refused.lastAt}`;
    return [{ topic: lang === 'pt' ? 'entregas' : 'deliveries', status: `refused (${refused.reason})`, fix: `${count}: ${words.cause}. ${words.fix}` }];
  });
}

/** A stable key of the webhook findings: the same findings are told once, a change is told again. */
export function webhooksKey(webhooks: WebhookAlert[]): string {
  return webhooks
    .map((hook) => `${hook.id ?? ''}/${hook.topic}/${hook.status}`)
    .sort()
    .join(',');
}

export function subjectOf(digest: Digest): string {
  const pt = digest.lang === 'pt';
  const parts = [];
  const orders = digest.orders.length + digest.more;
  if (orders > 0) {
    parts.push(pt ? `${orders} encomenda${orders === 1 ? '' : 's'} à espera de uma pessoa` : `${orders} order${orders === 1 ? '' : 's'} need${orders === 1 ? 's' : ''} a person`);
  }
  const hooks = digest.webhooks.length;
  if (hooks > 0) parts.push(pt ? `${hooks} problema${hooks === 1 ? '' : 's'} nos webhooks da loja` : `${hooks} shop webhook problem${hooks === 1 ? '' : 's'}`);
  return `[${pt ? 'Conector MagniFinance' : 'MagniFinance connector'}] ${digest.tenant}: ${parts.join(', ')}`;
}

/**
 * Customer data (names, addresses, what the shop stored) reaches the reasons and fixes: in a chat it
 * must stay text. Slack reads `<!channel>`, `<@U123>` and `<https://…|disguised link>`, so `& < >`
 * become entities; Teams reads Markdown and some HTML, so its markup characters are escaped with a
 * backslash and `& < >` become entities. Every channel drops control characters, escapes and bidi
 * overrides (webhooks/woocommerce/text.ts). Our own links and templates are not escaped.
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
  const pt = digest.lang === 'pt';
  const esc = (text: string) => escapeForChat(text, format);
  const lines = [subjectOf(digest), ''];
  for (const order of digest.orders) {
    lines.push(
      pt
        ? `• Encomenda ${order.orderId} (${purposeWords('pt', order.purpose)}), ${stateLabel('pt', order.state as LedgerState)} desde ${order.since}`
        : `• Order ${order.orderId} (${order.purpose}), ${order.state} since ${order.since}`,
    );
    lines.push(`  ${pt ? 'Porquê' : 'Reason'}: ${esc(order.reason)}`);
    lines.push(`  ${pt ? 'O que fazer' : 'Fix'}: ${esc(order.fix)}`);
    lines.push(`  ${order.link}`);
  }
  if (digest.more > 0) {
    lines.push(pt ? `… e mais ${digest.more} na próxima mensagem; todas: ${digest.attentionLink}` : `… and ${digest.more} more in the next message; all of them: ${digest.attentionLink}`);
  }
  for (const hook of digest.webhooks) {
    lines.push(
      pt
        ? `• Webhook ${hook.id ?? ''} ${esc(hook.topic)} está ${esc(hook.status)}${hook.deliveryUrl ? ` (${esc(hook.deliveryUrl)})` : ''}`
        : `• Webhook ${hook.id ?? ''} ${esc(hook.topic)} is ${esc(hook.status)}${hook.deliveryUrl ? ` (${esc(hook.deliveryUrl)})` : ''}`,
    );
    lines.push(`  ${pt ? 'O que fazer' : 'Fix'}: ${esc(hook.fix)}`);
  }
  return lines.join('\n');
}
