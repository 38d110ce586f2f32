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
          'Em anexo: o resumo numa página (PDF), o livro com uma folha por secção (XLSX) e as mesmas tabelas em CSV. O IVA está por taxa e região, como os campos da declaração periódica, a partir dos documentos emitidos pelo conector; para o comparar com o SAF-T do mês, carregue o ficheiro exportado do MagniFinance na página do mês:',
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
          "Attached: the one-page summary (PDF), the workbook with a sheet per section (XLSX) and the same tables as CSV. VAT is per rate and region, as the periodic return's fields, from the documents the connector issued; to compare it with the month's SAF-T, upload the file exported from MagniFinance on the month's page:",
          p.link,
          p.closed ? 'The month is already closed in the console.' : 'Once the return is filed, close the month on that page: a document issued later dated in it then asks for attention.',
          '',
          'Sent automatically by the MagniFinance connector.',
        ]
          .filter((line, i, all) => line !== '' || all[i - 1] !== '')
          .join('\n'),
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
