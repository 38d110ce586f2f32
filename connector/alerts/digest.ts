import type { LedgerEntry } from '../ledger';
import type { SweepReport } from '../sweep';

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
  orders: OrderAlert[];
  webhooks: WebhookAlert[];
  /** Orders pending beyond this message's cap; they follow in the next digest. */
  more: number;
  attentionLink: string;
}

/** The reason and the fix for each needs-a-person state: one place, used by every channel. */
export function describeOrder(entry: LedgerEntry | null, orderId: number, purpose: string, link: string): Pick<OrderAlert, 'state' | 'reason' | 'fix'> {
  const state = entry?.state ?? 'unknown';
  const detail = entry?.detail ?? entry?.lastError;
  // The pipeline wrote why and what to do when it flagged the order (pipeline/needs-person.ts): the
  // alert says the same as the order note and the console. The table below words entries without it.
  if (entry?.action) return { state, reason: detail ?? `the order is in state ${state}`, fix: entry.action };
  const retry = `then POST ${link}/retry`;
  switch (state) {
    case 'duplicate-unknown-id':
      return {
        state,
        reason: `the document was issued once but its id is unknown${detail ? ` (${detail})` : ''}`,
        fix: `find the document with ExternalId ${entry?.externalId ?? `wc-${orderId}`} in the MagniFinance back-office and attach its id: POST ${link}/attach {"purpose":"${purpose}","documentId":<id>}`,
      };
    case 'alert-no-number':
      return { state, reason: `the invoicing service gave no number in time${detail ? ` (${detail})` : ''}`, fix: `check the document in the MagniFinance back-office, ${retry}` };
    case 'mapping-failed':
      return { state, reason: detail ?? 'the order cannot be mapped to a legal document', fix: `correct the order in WooCommerce as the reason says, ${retry}` };
    case 'held':
      return { state, reason: detail ?? 'the mapping held the order', fix: `review the order in WooCommerce, ${retry}` };
    default:
      return { state, reason: detail ?? `the order is in state ${state}`, fix: `open ${link} for the ledger and the jobs, ${retry}` };
  }
}

export function describeWebhooks(report: SweepReport | null): WebhookAlert[] {
  if (!report) return [];
  return [
    ...report.inactiveWebhooks.map((hook) => ({
      id: hook.id,
      topic: hook.topic,
      status: hook.status,
      deliveryUrl: hook.deliveryUrl,
      fix: `WooCommerce > Settings > Advanced > Webhooks: set webhook ${hook.id} (${hook.topic}) back to Active; the sweep catches the orders it missed`,
    })),
    ...report.missingTopics.map((topic) => ({ topic, status: 'missing', fix: `add an Active ${topic} webhook pointing at the connector (docs/connector.md)` })),
  ];
}

/** A stable key of the webhook findings: the same findings are told once, a change is told again. */
export function webhooksKey(webhooks: WebhookAlert[]): string {
  return webhooks
    .map((hook) => `${hook.id ?? ''}/${hook.topic}/${hook.status}`)
    .sort()
    .join(',');
}

export function subjectOf(digest: Digest): string {
  const parts = [];
  const orders = digest.orders.length + digest.more;
  if (orders > 0) parts.push(`${orders} order${orders === 1 ? '' : 's'} need${orders === 1 ? 's' : ''} a person`);
  if (digest.webhooks.length > 0) parts.push(`${digest.webhooks.length} shop webhook problem${digest.webhooks.length === 1 ? '' : 's'}`);
  return `[MagniFinance connector] ${digest.tenant}: ${parts.join(', ')}`;
}

/** Plain text: the e-mail body and the `text` of the chat message. */
export function textOf(digest: Digest): string {
  const lines = [subjectOf(digest), ''];
  for (const order of digest.orders) {
    lines.push(`• Order ${order.orderId} (${order.purpose}), ${order.state} since ${order.since}`);
    lines.push(`  Reason: ${order.reason}`);
    lines.push(`  Fix: ${order.fix}`);
    lines.push(`  ${order.link}`);
  }
  if (digest.more > 0) lines.push(`… and ${digest.more} more in the next message; all of them: ${digest.attentionLink}`);
  for (const hook of digest.webhooks) {
    lines.push(`• Webhook ${hook.id ?? ''} ${hook.topic} is ${hook.status}${hook.deliveryUrl ? ` (${hook.deliveryUrl})` : ''}`);
    lines.push(`  Fix: ${hook.fix}`);
  }
  return lines.join('\n');
}
