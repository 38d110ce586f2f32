import { z } from 'zod';
import { catalogue, words } from '../../messages/catalogue';
import { calendarDay } from '../../messages/dates';
import { localeOf, type Lang } from '../../messages/lang';

/**
 * The month's sentences that are not findings (those are month-words.ts's, with why and action):
 * the sign-off, the e-mail to the accountant and what the console and the doctor say of it, in the
 * catalogue's shape (messages/catalogue.ts): a code, typed parameters, one function per language.
 * Days are yyyy-mm-dd in the shop's zone, written the reader's way.
 */

const S = z.string();
const N = z.number();

/** "outubro de 2026" / "October 2026": a yyyy-mm month as the reader names it. */
export function monthName(lang: Lang, month: string): string {
  const [year, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat(localeOf(lang), { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(Date.UTC(year, m - 1, 1));
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** A platform as people name it. */
const PLATFORM: Record<string, string> = { woocommerce: 'WooCommerce', shopify: 'Shopify' };
const platformName = (platform: string): string => PLATFORM[platform] ?? platform;
const MORE: Record<Lang, (named: string, more: number) => string> = { pt: (named, more) => `${named} e mais ${more}`, en: (named, more) => `${named} and ${more} more` };
/** "#1, #2 and 3 more" / "#1, #2 e mais 3": the orders that make a difference, the first ten named. */
const orderList = (lang: Lang, orders: readonly number[]): string => {
  const named = orders.slice(0, 10).map((o) => `#${o}`).join(', ');
  const more = orders.length - 10;
  return more > 0 ? MORE[lang](named, more) : named;
};
const ORDERS = z.array(N);

export const MONTH_SENTENCES = catalogue({
  'signed-off': words(
    { by: S, day: S, time: S },
    {
      pt: (p) => `Fechado por ${p.by} a ${calendarDay('pt', p.day)} às ${p.time}.`,
      en: (p) => `Closed by ${p.by} on ${calendarDay('en', p.day)} at ${p.time}.`,
    },
  ),
  'mail-subject': words(
    { month: S, shop: S, attention: N },
    {
      pt: (p) => `${p.shop}: o mês de ${monthName('pt', p.month)} (${p.attention === 0 ? 'nada a assinalar' : count(p.attention, 'ponto precisa', 'pontos precisam') + ' de atenção'})`,
      en: (p) => `${p.shop}: the month of ${monthName('en', p.month)} (${p.attention === 0 ? 'nothing to report' : count(p.attention, 'point needs', 'points need') + ' attention'})`,
    },
  ),
  'mail-body': words(
    { month: S, shop: S, orders: N, documents: N, attention: N, explained: N, link: S, closed: z.boolean() },
    {
      pt: (p) =>
        [
          'Bom dia,',
          '',
          `Segue o pacote do mês de ${monthName('pt', p.month)} da loja ${p.shop}: ${count(p.orders, 'encomenda', 'encomendas')}, ${count(p.documents, 'documento emitido', 'documentos emitidos')} pelo conector.`,
          p.attention === 0 ? 'Nada precisa de atenção: cada venda tem o seu documento, uma vez, e cada reembolso a sua nota de crédito.' : `${count(p.attention, 'ponto precisa', 'pontos precisam')} de atenção (no PDF e na folha «Resumo» do XLSX, cada um com o porquê e o que fazer).`,
          p.explained === 0 ? '' : `${count(p.explained, 'diferença explicada', 'diferenças explicadas')}, sem nada a fazer.`,
          '',
          'Em anexo: o resumo do mês (PDF), o livro com uma folha por secção (XLSX) e as mesmas tabelas em CSV. O IVA está por taxa e região, como os campos da declaração periódica, a partir dos documentos emitidos pelo conector; para o comparar com o SAF-T do mês, carregue o ficheiro exportado do MagniFinance na página do mês:',
          p.link,
          p.closed ? 'O mês já está fechado na consola.' : 'Depois de entregar a declaração, feche o mês nessa página: um documento emitido depois com data do mês passa a pedir atenção.',
          '',
          'Enviado automaticamente pelo conector MagniFinance.',
        ]
          .filter((line, i, all) => line !== '' || all[i - 1] !== '')
          .join('\n'),
      en: (p) =>
        [
          'Hello,',
          '',
          `Here is the pack of ${monthName('en', p.month)} for the shop ${p.shop}: ${count(p.orders, 'order', 'orders')}, ${count(p.documents, 'document', 'documents')} issued by the connector.`,
          p.attention === 0 ? 'Nothing needs attention: every sale has its document, once, and every refund its credit note.' : `${count(p.attention, 'point needs', 'points need')} attention (in the PDF and the XLSX's "Summary" sheet, each with why and what to do).`,
          p.explained === 0 ? '' : `${count(p.explained, 'explained difference', 'explained differences')}, nothing to do.`,
          '',
          "Attached: the month's summary (PDF), the workbook with a sheet per section (XLSX) and the same tables as CSV. VAT is per rate and region, as the periodic return's fields, from the documents the connector issued; to compare it with the month's SAF-T, upload the file exported from MagniFinance on the month's page:",
          p.link,
          p.closed ? 'The month is already closed in the console.' : 'Once the return is filed, close the month on that page: a document issued later dated in it then asks for attention.',
          '',
          'Sent automatically by the MagniFinance connector.',
        ]
          .filter((line, i, all) => line !== '' || all[i - 1] !== '')
          .join('\n'),
    },
  ),
  'shop-report-title': words({ platform: S }, { pt: (p) => `O relatório de impostos do ${platformName(p.platform)}`, en: (p) => `${platformName(p.platform)}'s tax report` }),
  'shop-report-intro': words(
    { platform: S },
    {
      pt: (p) =>
        `O ${platformName(p.platform)} conta cada encomenda na data em que foi criada (não na do pagamento nem na da fatura, que é o facto gerador), cada reembolso como linha própria na data em que foi feito, deixa de fora as encomendas canceladas e não tem base tributável. As diferenças vêm daí e estão explicadas encomenda a encomenda: não são erros.`,
      en: (p) =>
        `${platformName(p.platform)} counts each order on the day it was created (not the payment's, nor the invoice's, which is the tax point), each refund as a row of its own on the day it was made, leaves cancelled orders out, and has no taxable base. The differences come from that and are explained order by order: they are not errors.`,
    },
  ),
  'shop-report-none': words(
    { platform: S },
    {
      pt: (p) => `O ${platformName(p.platform)} não tem um relatório de impostos por taxa que se possa comparar: os valores do mês são os dos nossos documentos (e do SAF-T, se o carregar).`,
      en: (p) => `${platformName(p.platform)} has no tax report per rate to compare with: the month's figures are our documents' (and the SAF-T's, if you upload it).`,
    },
  ),
  'shop-report-no-route': words(
    { platform: S },
    {
      pt: (p) => `Este ${platformName(p.platform)} não tem o relatório de impostos da sua análise (wc-analytics): a análise está desligada ou a versão é anterior. Nada a comparar; não é um erro.`,
      en: (p) => `This ${platformName(p.platform)} has no analytics tax report (wc-analytics): analytics is turned off or the version is older. Nothing to compare; not an error.`,
    },
  ),
  'shop-report-not-allowed': words(
    { platform: S },
    {
      pt: (p) => `A chave REST da loja não pode ler os relatórios do ${platformName(p.platform)} (o seu utilizador não tem a permissão de ver relatórios): nada a comparar. Para o comparar, crie a chave com um administrador da loja.`,
      en: (p) => `The shop's REST key may not read ${platformName(p.platform)}'s reports (its user cannot view reports): nothing to compare. To compare, make the key with a shop administrator.`,
    },
  ),
  'shop-report-unread': words(
    { platform: S, error: S },
    {
      pt: (p) => `Não foi possível ler o relatório de impostos do ${platformName(p.platform)} (${p.error}): volte a gerar o pacote.`,
      en: (p) => `Could not read ${platformName(p.platform)}'s tax report (${p.error}): make the pack again.`,
    },
  ),
  'shop-report-rate': words({ percent: S }, { pt: (p) => `IVA ${p.percent.replace('.', ',')} %`, en: (p) => `VAT ${p.percent} %` }),
  'shop-report-agrees': words({}, { pt: () => 'Igual, ao cêntimo.', en: () => 'The same, to the cent.' }),
  'shop-report-not-ours': words(
    { platform: S },
    {
      pt: (p) => `Taxa que o conector não pôs em nenhum documento do mês (IVA de outro país, declarado no OSS, ou uma taxa que a loja já não usa): fica fora da comparação com o ${platformName(p.platform)}.`,
      en: (p) => `A rate the connector put on no document of the month (another country's VAT, declared through OSS, or a rate the shop no longer uses): left out of the comparison with ${platformName(p.platform)}.`,
    },
  ),
  'created-other-month': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: encomendas criadas noutro mês e faturadas neste (${orderList('pt', p.orders)}); o ${platformName(p.platform)} conta-as no mês em que foram criadas.`,
      en: (p) => `${p.amount}: orders created in another month and invoiced in this one (${orderList('en', p.orders)}); ${platformName(p.platform)} counts them in the month they were created.`,
    },
  ),
  'invoiced-other-month': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: encomendas criadas neste mês e faturadas noutro (${orderList('pt', p.orders)}); o ${platformName(p.platform)} conta-as aqui, o IVA no mês da fatura.`,
      en: (p) => `${p.amount}: orders created in this month and invoiced in another (${orderList('en', p.orders)}); ${platformName(p.platform)} counts them here, VAT in the invoice's month.`,
    },
  ),
  'credited-other-month': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: notas de crédito deste mês de reembolsos feitos noutro (${orderList('pt', p.orders)}); o ${platformName(p.platform)} conta o reembolso no dia em que foi feito.`,
      en: (p) => `${p.amount}: credit notes of this month for refunds made in another (${orderList('en', p.orders)}); ${platformName(p.platform)} counts the refund on the day it was made.`,
    },
  ),
  'refund-credited-other-month': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: reembolsos feitos neste mês com a nota de crédito noutro (${orderList('pt', p.orders)}); o ${platformName(p.platform)} conta-os aqui.`,
      en: (p) => `${p.amount}: refunds made in this month whose credit note is dated in another (${orderList('en', p.orders)}); ${platformName(p.platform)} counts them here.`,
    },
  ),
  'cancelled-document': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: documentos anulados no MagniFinance de encomendas que o ${platformName(p.platform)} ainda conta (${orderList('pt', p.orders)}).`,
      en: (p) => `${p.amount}: documents cancelled on MagniFinance whose orders ${platformName(p.platform)} still counts (${orderList('en', p.orders)}).`,
    },
  ),
  'order-cancelled-in-shop': words(
    { platform: S, orders: ORDERS, amount: S },
    {
      pt: (p) => `${p.amount}: encomendas canceladas na loja com documentos deste mês (${orderList('pt', p.orders)}); o relatório do ${platformName(p.platform)} deixa-as de fora.`,
      en: (p) => `${p.amount}: orders cancelled in the shop with documents of this month (${orderList('en', p.orders)}); ${platformName(p.platform)}'s report leaves them out.`,
    },
  ),
  'shop-report-rest': words(
    { platform: S, amount: S, withoutDocument: ORDERS, refunds: ORDERS },
    {
      pt: (p) =>
        `${p.amount} sem encomenda a que se possa atribuir: ${[p.withoutDocument.length > 0 ? `encomendas do mês ainda sem documento (${orderList('pt', p.withoutDocument)})` : '', p.refunds.length > 0 ? `reembolsos do mês sem nota de crédito (${orderList('pt', p.refunds)})` : '', 'encomendas em estados que o conector não fatura (ex.: on-hold)', `impostos arredondados linha a linha pelo ${platformName(p.platform)}`].filter(Boolean).join('; ')}.`,
      en: (p) =>
        `${p.amount} not traced to an order: ${[p.withoutDocument.length > 0 ? `orders of the month without a document yet (${orderList('en', p.withoutDocument)})` : '', p.refunds.length > 0 ? `refunds of the month without a credit note (${orderList('en', p.refunds)})` : '', 'orders in statuses the connector does not invoice (e.g. on-hold)', `taxes rounded line by line by ${platformName(p.platform)}`].filter(Boolean).join('; ')}.`,
    },
  ),
  'shop-report-more': words(
    { platform: S, more: N },
    {
      pt: (p) => `E mais ${count(p.more, 'explicação', 'explicações')} no XLSX (folha «${platformName(p.platform)}») e no CSV.`,
      en: (p) => `And ${p.more} more ${p.more === 1 ? 'explanation' : 'explanations'} in the XLSX (the "${platformName(p.platform)}" sheet) and the CSV.`,
    },
  ),
  'mail-label': words({}, { pt: () => 'E-mail ao contabilista', en: () => 'E-mail to the accountant' }),
  'mail-sent': words(
    { to: S, day: S, time: S },
    {
      pt: (p) => `Enviado a ${p.to} a ${calendarDay('pt', p.day)} às ${p.time}, com o PDF, o XLSX e o CSV.`,
      en: (p) => `Sent to ${p.to} on ${calendarDay('en', p.day)} at ${p.time}, with the PDF, the XLSX and the CSV.`,
    },
  ),
  'mail-due': words(
    { to: S, day: S },
    {
      pt: (p) => `Segue para ${p.to} a ${calendarDay('pt', p.day)}, com o PDF, o XLSX e o CSV.`,
      en: (p) => `Goes to ${p.to} on ${calendarDay('en', p.day)}, with the PDF, the XLSX and the CSV.`,
    },
  ),
  'mail-sending': words({ to: S }, { pt: (p) => `A ser enviado a ${p.to}.`, en: (p) => `Being sent to ${p.to}.` }),
  'mail-failed': words(
    { to: S, error: S, retryDay: S, retry: S },
    {
      pt: (p) => `Ainda não enviado a ${p.to}: ${p.error}. Nova tentativa a ${calendarDay('pt', p.retryDay)} às ${p.retry}; verifique o servidor SMTP de alerts.email.`,
      en: (p) => `Not sent to ${p.to} yet: ${p.error}. Tried again on ${calendarDay('en', p.retryDay)} at ${p.retry}; check the SMTP server of alerts.email.`,
    },
  ),
  'mail-uncertain': words(
    { to: S, error: S, day: S, time: S, file: S },
    {
      pt: (p) => `Pode não ter chegado a ${p.to}: o envio de ${calendarDay('pt', p.day)} às ${p.time} não teve resposta do servidor SMTP (${p.error}). Não é reenviado sozinho: pergunte ao contabilista; para o enviar de novo, apague ${p.file}.`,
      en: (p) => `May not have reached ${p.to}: the send of ${calendarDay('en', p.day)} at ${p.time} got no answer from the SMTP server (${p.error}). It is not sent again by itself: ask the accountant; to send it again, delete ${p.file}.`,
    },
  ),
});
