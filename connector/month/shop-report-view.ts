import type { Lang } from '../../messages/lang';
import type { MonthPack } from './month-pack';
import { MONTH_SENTENCES } from './month-sentences';
import { formatFor } from './month-words';

/**
 * The comparison with the shop's own tax report in the reader's words, for every reader of the pack
 * (the console, the CLI, the CSV and XLSX): a title, what the report is (or why there is none), and
 * one row per rate with both figures, our base, the difference and each of its reasons.
 */

export interface ShopReportRow {
  rate: string;
  /** The shop's rate rows at this percent. */
  names: string;
  shop: string;
  shopOrders: string;
  ours: string;
  base: string;
  difference: string;
  why: string[];
}

export interface ShopReportView {
  title: string;
  notes: string[];
  rows: ShopReportRow[];
  /** The column heads. */
  heads: { rate: string; shop: string; orders: string; ours: string; base: string; difference: string; why: string };
}

const HEADS: Record<Lang, (platform: string) => ShopReportView['heads']> = {
  pt: (platform) => ({ rate: 'Taxa', shop: platform, orders: 'Encomendas', ours: 'IVA dos nossos documentos', base: 'Base (só nossa)', difference: 'Diferença', why: 'Porquê' }),
  en: (platform) => ({ rate: 'Rate', shop: platform, orders: 'Orders', ours: "Our documents' VAT", base: 'Base (ours only)', difference: 'Difference', why: 'Why' }),
};
const PLATFORM: Record<string, string> = { woocommerce: 'WooCommerce', shopify: 'Shopify' };

export function shopReportView(pack: MonthPack, lang: Lang, options: { oneLine?: boolean } = {}): ShopReportView {
  const report = pack.shopReport;
  const platform = report.platform;
  const f = formatFor(lang, options);
  const view: ShopReportView = { title: MONTH_SENTENCES.say(lang, 'shop-report-title', { platform }), notes: [], rows: [], heads: HEADS[lang](PLATFORM[platform] ?? platform) };
  if (report.status === 'no-report') return { ...view, notes: [MONTH_SENTENCES.say(lang, 'shop-report-none', { platform })] };
  if (report.status === 'not-available') return { ...view, notes: [MONTH_SENTENCES.say(lang, report.reason === 'no-route' ? 'shop-report-no-route' : 'shop-report-not-allowed', { platform })] };
  if (report.status === 'unread') return { ...view, notes: [MONTH_SENTENCES.say(lang, 'shop-report-unread', { platform, error: report.error })] };
  const eur = (amount: string): string => f.money(amount, 'EUR');
  view.notes.push(MONTH_SENTENCES.say(lang, 'shop-report-intro', { platform }));
  for (const rate of report.rates) {
    const why: string[] = [];
    if (rate.notOurs) why.push(MONTH_SENTENCES.say(lang, 'shop-report-not-ours', { platform }));
    else if (/^-?0\.00$/.test(rate.difference) && rate.explained.length === 0) why.push(MONTH_SENTENCES.say(lang, 'shop-report-agrees'));
    else {
      for (const e of rate.explained) why.push(MONTH_SENTENCES.say(lang, e.code, { platform, orders: e.orders, amount: eur(e.tax) }));
      if (!/^-?0\.00$/.test(rate.rest)) why.push(MONTH_SENTENCES.say(lang, 'shop-report-rest', { platform, amount: eur(rate.rest), withoutDocument: report.withoutDocument, refunds: report.refundsWithoutCreditNote }));
    }
    view.rows.push({
      rate: MONTH_SENTENCES.say(lang, 'shop-report-rate', { percent: rate.percent }),
      names: rate.names.join(', '),
      shop: rate.shopTax === undefined ? '' : eur(rate.shopTax),
      shopOrders: rate.shopOrders === undefined ? '' : String(rate.shopOrders),
      ours: eur(rate.ourTax),
      base: eur(rate.ourBase),
      difference: eur(rate.difference),
      why,
    });
  }
  return view;
}
