import { recentRefusals } from '../ingest/webhook-health';
import { listNotInvoiced } from '../ingest/not-invoiced';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { readShopAnswer } from '../shop/shop-answer';
import { shopAnswerWords } from '../shop/shop-answer-words';
import { refusedWordsOf } from '../shop/refused-words';
import { lastSweepReport } from '../core/sweep-report';
import type { ConsoleDeps } from './console-deps';
import { shopTime, startOfShopDay, t } from './i18n';
import { html, type Html, type View } from './page';
import { queueByTenant, webhookHealth, type ShopQueue } from './shop-page';

/**
 * The all-shops page's table: one line per shop, shops with problems first. Everything a line says is
 * read live, as the shop's own page reads it: the orders still to invoice (being issued, waiting for a
 * new attempt, sold before the go-live cut-off), what needs a person, the jobs with an error, a shop
 * that does not answer (since when and why), refused deliveries of the last hour.
 */
export async function allShopsTable(deps: ConsoleDeps, view: View, shopName: (tenant: TenantRuntime) => string): Promise<Html> {
  const { lang } = view;
  const now = Date.now();
  const waiting = await deps.ledger.attentionCounts();
  const queues = await queueByTenant(deps.queue);
  const shops = await Promise.all(
    [...deps.tenants.values()].map(async (tenant) => {
      const id = tenant.config.id;
      const [sweep, today, refused, answer, toInvoice] = await Promise.all([
        lastSweepReport(deps.redis, deps.prefix, id),
        deps.ledger.writtenBackSince(id, startOfShopDay(now, tenant.mapping.shopTimeZone)),
        recentRefusals(deps.redis, deps.prefix, id, now),
        readShopAnswer(deps.redis, deps.prefix, id),
        ordersToInvoice(deps, id, queues.get(id)),
      ]);
      const count = waiting.get(id) ?? 0;
      const failed = queues.get(id)?.failed.length ?? 0;
      const silent = shopAnswerWords(lang, answer, tenant.config.shop.timeoutMs, tenant.mapping.shopTimeZone, refusedWordsOf(tenant.config));
      const webhookProblems = (sweep ? sweep.inactiveWebhooks.length + sweep.missingTopics.length : 0) + refused.length;
      return { tenant, sweep, today, count, failed, toInvoice, silent, refused: refused.length, problems: count + failed + webhookProblems + (silent ? 1 : 0) };
    }),
  );
  // Shops with problems first (most first), then by name.
  shops.sort((a, b) => Number(b.problems > 0) - Number(a.problems > 0) || b.problems - a.problems || shopName(a.tenant).localeCompare(shopName(b.tenant)));
  const rows = shops.map(({ tenant, sweep, today, count, failed, toInvoice, silent, refused }) => {
    const id = tenant.config.id;
    return html`<tr data-tenant="${id}"><td data-label="${t(lang, 'shop')}"><a href="/console/${id}"><b>${shopName(tenant)}</b></a><br><a class="muted" href="${tenant.config.shop.url}" rel="noopener">${tenant.config.shop.url} ↗</a>${silent ? html`<br><span class="warn" data-silent="1">${silent}</span>` : ''}</td>
<td data-label="${t(lang, 'company')}">${tenant.config.invoicing.companyNif ?? '–'}</td>
<td class="num" data-label="${t(lang, 'toInvoice')}" data-figure="to-invoice">${toInvoice}</td>
<td class="num ${count > 0 ? 'warn' : ''}" data-label="${t(lang, 'waiting')}">${count}</td>
<td class="num ${failed > 0 ? 'warn' : ''}" data-label="${t(lang, 'queueFailed')}">${failed}</td>
<td class="num" data-label="${t(lang, 'issuedToday')}">${today}</td>
<td class="wide">${sweep?.until ? shopTime(Date.parse(sweep.until), tenant.mapping.shopTimeZone, lang) : t(lang, 'never')}</td><td data-label="Webhooks" data-refused="${refused}">${silent ? html`<span class="warn">?</span>` : webhookHealth(sweep, refused)}</td></tr>`;
  });
  return html`<section id="shops"><h2>${t(lang, 'shops')}</h2><p class="muted">${t(lang, 'toInvoice')}: ${t(lang, 'toInvoiceHelp')}.</p><table class="stack">
<tr><th>${t(lang, 'shop')}</th><th>${t(lang, 'company')}</th><th class="num">${t(lang, 'toInvoice')}</th><th class="num">${t(lang, 'waiting')}</th><th class="num">${t(lang, 'queueFailed')}</th><th class="num">${t(lang, 'issuedToday')}</th><th class="wide">${t(lang, 'lastSweep')}</th><th>Webhooks</th></tr>
${rows}</table></section>`;
}

/** Orders of the shop with no invoice yet that the connector knows of: invoices in the queue, and sales before the cut-off not issued since. */
async function ordersToInvoice(deps: ConsoleDeps, tenant: string, queue: ShopQueue | undefined): Promise<number> {
  const orders = new Set<number>();
  for (const job of [...(queue?.nowJobs ?? []), ...(queue?.laterJobs ?? [])]) if (job.purpose === 'invoice') orders.add(job.orderId);
  for (const entry of await listNotInvoiced(deps.redis, deps.prefix, tenant)) {
    if (entry.reason.code !== 'before-go-live' || orders.has(entry.orderId)) continue;
    const invoice = await deps.ledger.get({ tenant, orderId: entry.orderId, purpose: 'invoice' });
    if (invoice?.documentId === undefined) orders.add(entry.orderId);
  }
  return orders.size;
}
