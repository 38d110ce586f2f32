import { z } from 'zod';
import { calendarDay } from '../../messages/dates';
import type { Lang } from '../../messages/lang';
import { money } from '../../messages/money';
import { t } from '../console/i18n';
import { stateLabel } from '../words';
import { MONTH_SENTENCES } from './month-sentences';

/**
 * Every sentence of the month pack, per language (European Portuguese first): a finding is a code
 * with typed parameters (`MonthFinding`), worded only when shown, so the CLI, the console and the
 * JSON of the admin API say the same thing. Amounts are decimal text with their currency, formatted
 * with Intl; days are yyyy-mm-dd in the shop's zone, written the reader's way.
 */

const S = z.string();
const N = z.number();
const OPT = z.string().optional();

interface Entry<P> {
  params: z.ZodType<P>;
  /** attention: a person must act; explained: a difference with its reason, nothing to do. */
  kind: 'attention' | 'explained';
  pt: (p: P, f: Format) => { why: string; action: string };
  en: (p: P, f: Format) => { why: string; action: string };
}

interface Format {
  money: (amount: string, currency: string) => string;
  day: (day: string) => string;
}

function entry<Shape extends z.ZodRawShape>(
  kind: Entry<unknown>['kind'],
  shape: Shape,
  pt: (p: z.output<z.ZodObject<Shape>>, f: Format) => { why: string; action: string },
  en: (p: z.output<z.ZodObject<Shape>>, f: Format) => { why: string; action: string },
): Entry<z.output<z.ZodObject<Shape>>> {
  return { kind, params: z.object(shape) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>>, pt, en };
}

/** A waiting state's name: the ledger's one name per state (connector/words.ts), as on every page. */
const state = (lang: Lang, name: string): string => stateLabel(lang, name);

export const MONTH_MESSAGES = {
  'order-not-received': entry(
    'attention',
    { order: N, status: S, soldOn: S },
    (p, f) => ({ why: `A encomenda #${p.order} (${p.status}, vendida em ${f.day(p.soldOn)}) não tem fatura: o conector nunca a recebeu.`, action: `Carregue em «${t('pt', 'sweepNow')}» na página da loja, ou faça o backfill do mês (magnifinance backfill).` }),
    (p, f) => ({ why: `Order #${p.order} (${p.status}, sold on ${f.day(p.soldOn)}) has no invoice: the connector never received it.`, action: `Press "${t('en', 'sweepNow')}" on the shop's page, or backfill the month (magnifinance backfill).` }),
  ),
  'order-waiting': entry(
    'attention',
    { order: N, state: S, soldOn: S },
    (p, f) => ({ why: `A encomenda #${p.order} (vendida em ${f.day(p.soldOn)}) não tem fatura: está ${state('pt', p.state)}.`, action: 'Abra a encomenda na consola: diz porquê e o que fazer.' }),
    (p, f) => ({ why: `Order #${p.order} (sold on ${f.day(p.soldOn)}) has no invoice: it is ${state('en', p.state)}.`, action: "Open the order in the console: it says why and what to do." }),
  ),
  'order-in-flight': entry(
    'attention',
    { order: N, soldOn: S },
    (p, f) => ({ why: `A fatura da encomenda #${p.order} (vendida em ${f.day(p.soldOn)}) está a ser emitida e ainda não tem número.`, action: 'Volte a gerar o pacote dentro de minutos; se continuar, abra a encomenda na consola.' }),
    (p, f) => ({ why: `Order #${p.order}'s invoice (sold on ${f.day(p.soldOn)}) is being issued and has no number yet.`, action: 'Make the pack again in a few minutes; if it stays, open the order in the console.' }),
  ),
  'order-before-go-live': entry(
    'explained',
    { order: N, soldOn: S, goLiveOn: S },
    (p, f) => ({ why: `A encomenda #${p.order} foi vendida em ${f.day(p.soldOn)}, antes do arranque do conector (${f.day(p.goLiveOn)}): faturada por outro meio.`, action: 'Confirme que a fatura existe no outro programa (está no SAF-T se foi emitida no MagniFinance).' }),
    (p, f) => ({ why: `Order #${p.order} was sold on ${f.day(p.soldOn)}, before the connector's go-live (${f.day(p.goLiveOn)}): invoiced some other way.`, action: 'Check its invoice exists in the other program (it is in the SAF-T if it was issued in MagniFinance).' }),
  ),
  'order-other-system': entry(
    'explained',
    { order: N, system: S },
    (p) => ({ why: `A encomenda #${p.order} tem um documento de outro sistema (${p.system}).`, action: 'Nada a fazer aqui; o documento está no SAF-T desse programa.' }),
    (p) => ({ why: `Order #${p.order} carries another system's document (${p.system}).`, action: "Nothing to do here; the document is in that program's SAF-T." }),
  ),
  'order-handled': entry(
    'explained',
    { order: N },
    (p) => ({ why: `A encomenda #${p.order} foi marcada como tratada fora do conector.`, action: 'Confirme o documento emitido à mão (está no SAF-T, sem encomenda).' }),
    (p) => ({ why: `Order #${p.order} was marked as handled outside the connector.`, action: 'Check the document issued by hand (it is in the SAF-T, without an order).' }),
  ),
  'refund-without-credit-note': entry(
    'attention',
    { order: N, refund: N, amount: S, currency: S, day: OPT },
    (p, f) => ({ why: `O reembolso #${p.refund} da encomenda #${p.order} (${f.money(p.amount, p.currency)}${p.day ? `, ${f.day(p.day)}` : ''}) não tem nota de crédito.`, action: 'Abra a encomenda na consola; se o reembolso ficou sem efeito, marque-o como tratado.' }),
    (p, f) => ({ why: `Refund #${p.refund} of order #${p.order} (${f.money(p.amount, p.currency)}${p.day ? `, ${f.day(p.day)}` : ''}) has no credit note.`, action: 'Open the order in the console; if the refund was undone, mark it as handled.' }),
  ),
  'credit-note-without-refund': entry(
    'attention',
    { number: S, order: N, refund: N },
    (p) => ({ why: `A nota de crédito ${p.number} (encomenda #${p.order}) credita o reembolso #${p.refund}, que a loja já não tem.`, action: 'A nota de crédito mantém-se; não volte a criar o reembolso (teria outra nota de crédito).' }),
    (p) => ({ why: `Credit note ${p.number} (order #${p.order}) credits refund #${p.refund}, which the shop no longer has.`, action: 'The credit note stands; do not re-create the refund (it would get a second credit note).' }),
  ),
  'document-without-order': entry(
    'attention',
    { number: S, day: S, gross: S },
    (p, f) => ({ why: `O documento ${p.number} de ${f.day(p.day)} (${f.money(p.gross, 'EUR')}) está no SAF-T e não foi emitido pelo conector: emitido à mão ou por outro programa.`, action: 'Confirme a que venda corresponde; se pertencer a uma encomenda da loja, associe-o na página da encomenda.' }),
    (p, f) => ({ why: `Document ${p.number} of ${f.day(p.day)} (${f.money(p.gross, 'EUR')}) is in the SAF-T and was not issued by the connector: by hand or by another program.`, action: 'Check which sale it belongs to; if it is a shop order, attach it on the order\'s page.' }),
  ),
  'document-not-in-saft': entry(
    'attention',
    { number: S, order: N, day: S },
    (p, f) => ({ why: `O documento ${p.number} (encomenda #${p.order}, ${f.day(p.day)}) foi emitido pelo conector e não está no SAF-T: emitido mas não comunicado?`, action: 'Exporte de novo o SAF-T do mês no MagniFinance e volte a carregá-lo; se continuar a faltar, contacte o MagniFinance.' }),
    (p, f) => ({ why: `Document ${p.number} (order #${p.order}, ${f.day(p.day)}) was issued by the connector and is not in the SAF-T: issued but not communicated?`, action: "Export the month's SAF-T again from MagniFinance and upload it; if it is still missing, contact MagniFinance." }),
  ),
  'totals-differ': entry(
    'attention',
    { number: S, ours: S, saft: S },
    (p, f) => ({ why: `O documento ${p.number} totaliza ${f.money(p.ours, 'EUR')} no MagniFinance e ${f.money(p.saft, 'EUR')} no SAF-T.`, action: 'Abra o documento no MagniFinance e compare-o com a linha do SAF-T.' }),
    (p, f) => ({ why: `Document ${p.number} totals ${f.money(p.ours, 'EUR')} on MagniFinance and ${f.money(p.saft, 'EUR')} in the SAF-T.`, action: 'Open the document in MagniFinance and compare it with its SAF-T entry.' }),
  ),
  'cancelled-document': entry(
    'explained',
    { number: S, day: S, order: z.number().optional() },
    (p, f) => ({ why: `O documento ${p.number} de ${f.day(p.day)}${p.order ? ` (encomenda #${p.order})` : ''} está anulado: não conta no IVA.`, action: 'Nada a fazer; confirme que a venda foi desfeita ou faturada de novo.' }),
    (p, f) => ({ why: `Document ${p.number} of ${f.day(p.day)}${p.order ? ` (order #${p.order})` : ''} is cancelled: it counts nothing in VAT.`, action: 'Nothing to do; check the sale was undone or invoiced again.' }),
  ),
  'document-unread': entry(
    'attention',
    { order: N, number: S, error: S },
    (p) => ({ why: `Não foi possível ler o documento ${p.number} (encomenda #${p.order}) no MagniFinance: ${p.error}`, action: 'Volte a gerar o pacote; as contas do IVA não o incluem até ser lido.' }),
    (p) => ({ why: `Document ${p.number} (order #${p.order}) could not be read from MagniFinance: ${p.error}`, action: "Make the pack again; the VAT figures leave it out until it is read." }),
  ),
  'saft-other-company': entry(
    'attention',
    { saft: S, ours: S },
    (p) => ({ why: `O SAF-T é da empresa com NIF ${p.saft}, e esta loja fatura para ${p.ours}.`, action: 'Carregue o SAF-T da empresa certa.' }),
    (p) => ({ why: `The SAF-T is of the company with tax id ${p.saft}; this shop invoices for ${p.ours}.`, action: "Upload the right company's SAF-T." }),
  ),
  'saft-other-period': entry(
    'attention',
    { start: S, end: S, month: S },
    (p, f) => ({ why: `O SAF-T cobre ${f.day(p.start)} a ${f.day(p.end)} e não o mês ${p.month}.`, action: 'Exporte o SAF-T do mês certo no MagniFinance.' }),
    (p, f) => ({ why: `The SAF-T covers ${f.day(p.start)} to ${f.day(p.end)}, not the month ${p.month}.`, action: 'Export the right month\'s SAF-T from MagniFinance.' }),
  ),
  'saft-control-totals': entry(
    'attention',
    { debit: S, credit: S },
    (p, f) => ({ why: `Os totais de controlo do SAF-T (débito ${f.money(p.debit, 'EUR')}, crédito ${f.money(p.credit, 'EUR')}) não batem com os seus documentos.`, action: 'O ficheiro pode estar incompleto ou alterado: exporte-o de novo.' }),
    (p, f) => ({ why: `The SAF-T's control totals (debit ${f.money(p.debit, 'EUR')}, credit ${f.money(p.credit, 'EUR')}) do not add up to its documents.`, action: 'The file may be incomplete or altered: export it again.' }),
  ),
  'vat-difference': entry(
    'attention',
    { region: S, field: S, difference: S, documents: S },
    (p, f) => ({ why: `O campo ${p.field} (${REGION_LABELS[p.region]?.pt ?? p.region}) difere em ${f.money(p.difference, 'EUR')} entre os nossos documentos e o SAF-T${p.documents ? `: ${p.documents}` : ''}.`, action: 'As linhas acima explicam os documentos que fazem a diferença; trate-as e gere o pacote de novo.' }),
    (p, f) => ({ why: `Field ${p.field} (${REGION_LABELS[p.region]?.en ?? p.region}) differs by ${f.money(p.difference, 'EUR')} between our documents and the SAF-T${p.documents ? `: ${p.documents}` : ''}.`, action: 'The lines above name the documents that make it; settle them and make the pack again.' }),
  ),
  'document-after-sign-off': entry(
    'attention',
    { number: S, order: N, day: S, by: S, closedOn: S },
    (p, f) => ({ why: `O documento ${p.number} (encomenda #${p.order}) tem a data de ${f.day(p.day)} e foi emitido depois de ${p.by} fechar o mês a ${f.day(p.closedOn)}.`, action: 'Confirme se a declaração periódica e o SAF-T enviados o incluem; se não, substitua-os e feche o mês de novo.' }),
    (p, f) => ({ why: `Document ${p.number} (order #${p.order}) is dated ${f.day(p.day)} and was issued after ${p.by} closed the month on ${f.day(p.closedOn)}.`, action: 'Check whether the VAT return and the SAF-T sent include it; if not, replace them and close the month again.' }),
  ),
} as const;

export type MonthMessageCode = keyof typeof MONTH_MESSAGES;
type ParamsOf<C extends MonthMessageCode> = (typeof MONTH_MESSAGES)[C] extends Entry<infer P> ? P : never;
export type MonthFinding = { [C in MonthMessageCode]: { code: C; params: ParamsOf<C> } }[MonthMessageCode];

/** "Closed by ana on 05/12/2026 at 10:12": the sign-off in the reader's words. */
export function signOffText(lang: Lang, by: string, day: string, time: string): string {
  return MONTH_SENTENCES.say(lang, 'signed-off', { by, day, time });
}

export function findingKind(finding: MonthFinding): 'attention' | 'explained' {
  return MONTH_MESSAGES[finding.code].kind;
}

/** Amounts and days as messages/ formats them for every reader (Intl; days already the shop's). */
export function formatFor(lang: Lang, options: { oneLine?: boolean } = {}): Format {
  return { money: (amount, currency) => money(lang, amount, currency, options), day: (day) => calendarDay(lang, day) };
}

/** A finding in the reader's language: why, and what to do. */
export function monthText(lang: Lang, finding: MonthFinding, format: Format): { why: string; action: string } {
  const message = MONTH_MESSAGES[finding.code] as Entry<unknown>;
  const params = message.params.parse(finding.params);
  return message[lang](params, format);
}

/** Labels of the page, the CLI and the files. */
export const MONTH_LABELS = {
  title: { pt: 'O mês', en: 'The month' },
  attention: { pt: 'Precisam da sua atenção', en: 'Need your attention' },
  explained: { pt: 'Diferenças explicadas', en: 'Explained differences' },
  nothing: { pt: 'Nada a assinalar: cada venda tem o seu documento, uma vez, e cada reembolso a sua nota de crédito.', en: 'Nothing to report: every sale has its document, once, and every refund its credit note.' },
  boxes: { pt: 'IVA por taxa e região (declaração periódica, quadro 06)', en: 'VAT per rate and region (periodic VAT return, table 06)' },
  ours: { pt: 'Os nossos documentos', en: 'Our documents' },
  saft: { pt: 'SAF-T', en: 'SAF-T' },
  difference: { pt: 'Diferença', en: 'Difference' },
  noSaft: { pt: 'Sem SAF-T: carregue o ficheiro do mês exportado do MagniFinance para o comparar.', en: "No SAF-T: upload the month's file exported from MagniFinance to compare it." },
  orders: { pt: 'Encomendas do mês', en: "The month's orders" },
  documents: { pt: 'Documentos', en: 'Documents' },
  exemptions: { pt: 'Códigos de isenção', en: 'Exemption codes' },
  why: { pt: 'Porquê', en: 'Why' },
  action: { pt: 'O que fazer', en: 'What to do' },
  upload: { pt: 'Carregar o SAF-T do mês', en: "Upload the month's SAF-T" },
  taxPoint: { pt: 'Data do documento (facto gerador)', en: 'Document date (tax point)' },
  otherMonth: { pt: 'Criadas ou pagas noutro mês', en: 'Created or paid in another month' },
  computedIn: { pt: 'Calculado em', en: 'Computed in' },
  signOff: { pt: 'Fecho do mês', en: 'Sign-off' },
  files: { pt: 'Ficheiros do mês', en: "The month's files" },
  oss: { pt: 'Vendas a consumidores de outros Estados-Membros (OSS)', en: 'Sales to consumers in other member states (OSS)' },
  ossMonth: { pt: 'Este mês', en: 'This month' },
  ossQuarter: { pt: 'Trimestre', en: 'Quarter' },
  ossNone: { pt: 'Nenhuma venda tributada a compradores de outros Estados-Membros.', en: 'No taxed sale to buyers in other member states.' },
  ossMissing: { pt: 'Meses do trimestre ainda sem pacote (não somados):', en: 'Months of the quarter without a pack yet (not added):' },
  country: { pt: 'País', en: 'Country' },
  rates: { pt: 'Taxas', en: 'Rates' },
  base: { pt: 'Base', en: 'Base' },
  vat: { pt: 'IVA', en: 'VAT' },
  code: { pt: 'Código', en: 'Code' },
  close: { pt: 'Fechar o mês', en: 'Close the month' },
  reopen: { pt: 'Reabrir o mês', en: 'Reopen the month' },
  open: { pt: 'O mês está aberto.', en: 'The month is open.' },
  closeHint: {
    pt: 'Feche o mês depois de entregar a declaração: um documento emitido depois com data deste mês passa a pedir atenção.',
    en: 'Close the month once its return is filed: a document issued later dated in it then asks for attention.',
  },
} as const satisfies Record<string, Record<Lang, string>>;

export const FIELD_LABELS: Record<string, Record<Lang, string>> = {
  '1': { pt: '1 - base à taxa reduzida', en: '1 - base at the reduced rate' },
  '2': { pt: '2 - IVA à taxa reduzida', en: '2 - VAT at the reduced rate' },
  '5': { pt: '5 - base à taxa intermédia', en: '5 - base at the intermediate rate' },
  '6': { pt: '6 - IVA à taxa intermédia', en: '6 - VAT at the intermediate rate' },
  '3': { pt: '3 - base à taxa normal', en: '3 - base at the normal rate' },
  '4': { pt: '4 - IVA à taxa normal', en: '4 - VAT at the normal rate' },
  '7': { pt: '7 - transmissões intracomunitárias (isentas)', en: '7 - intra-EU supplies (exempt)' },
  '8': { pt: '8 - isentas ou não sujeitas com direito à dedução', en: '8 - exempt or not subject, with the right to deduct' },
  '9': { pt: '9 - isentas ou não sujeitas sem direito à dedução', en: '9 - exempt or not subject, without the right to deduct' },
  'other-base': { pt: 'base a outra taxa', en: 'base at another rate' },
  'other-vat': { pt: 'IVA a outra taxa', en: 'VAT at another rate' },
};

export const REGION_LABELS: Record<string, Record<Lang, string>> = {
  PT: { pt: 'Continente', en: 'Mainland' },
  'PT-AC': { pt: 'Açores', en: 'Azores' },
  'PT-MA': { pt: 'Madeira', en: 'Madeira' },
};
