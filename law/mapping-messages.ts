import { z } from 'zod';
import { catalogue, words } from '../messages/catalogue';
import {
  datePt,
  exemptionReasonWords,
  type ExemptionReasonParams,
  type Lang,
  moneyPt,
  percentPt,
  rateListWords,
  regionList,
  regionWords,
  totalLabelEn,
  totalNamePt,
} from './mapping-words';

export type { Lang } from './mapping-words';

/**
 * Every sentence the mapping writes for a person (its refusals, holds, warnings and notes) as a
 * code with parameters, worded in English and in European Portuguese from this one catalogue.
 *
 * The parameters are the facts (numbers as the library writes them: "1660.50", "23", "2026-03-10";
 * names and codes as they are); each language formats them: Portuguese writes "1 660,50 €",
 * "23 %", "10/03/2026". A message stored as JSON reads back with `MappingMessageSchema`.
 *
 * English: each `en` gives the library's historical wording, word for word (it is what
 * `OrderMappingError.message`, `MappingNote.message` and `holdReasons` carry, and what callers and
 * tests match); `mappingText('en', ...)` makes it a sentence (capital letter, full stop).
 */

const S = z.string();
const N = z.number();
const OPT = z.string().optional();

type Params = Record<string, string | number>;

interface Entry<P> {
  params: z.ZodType<P>;
  en: (p: P) => string;
  pt: (p: P) => string;
}

function entry<Shape extends z.ZodRawShape>(
  shape: Shape,
  en: (p: z.output<z.ZodObject<Shape>>) => string,
  pt: (p: z.output<z.ZodObject<Shape>>) => string,
): Entry<z.output<z.ZodObject<Shape>>> {
  return { params: z.object(shape) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>>, en, pt };
}

// --- shared wording ---------------------------------------------------------------------------

const money = (amount: string | number, currency?: string): string => moneyPt(amount, currency);
const CIVA_40_1 = 'art. 40.º, n.º 1, do CIVA';
const DOCUMENT_NAMES: Record<string, string> = { T: 'fatura-recibo', I: 'fatura', S: 'fatura simplificada' };
/** "tipo T (fatura-recibo)". */
const docType = (type: string): string => `tipo ${type}${DOCUMENT_NAMES[type] ? ` (${DOCUMENT_NAMES[type]})` : ''}`;
const quoteEach = (list: string, separator = ', '): string =>
  list
    .split(separator)
    .filter(Boolean)
    .map((item) => `"${item}"`)
    .join(', ');
/**
 * The platform a note names (`shop`: the sale's `platformTitle`, "WooCommerce", "Shopify"), or the
 * shop in general when the sale does not name it: the law knows no platform by itself.
 */
const SHOP_NAMED: Record<Lang, { subject: (shop?: string) => string; where: (shop?: string) => string; of: (shop?: string) => string }> = {
  en: { subject: (shop) => shop ?? 'the shop', where: (shop) => (shop ? `in ${shop}` : 'in the shop'), of: (shop) => (shop ? `${shop}'s` : "the shop's") },
  pt: { subject: (shop) => (shop ? `o ${shop}` : 'a loja'), where: (shop) => (shop ? `no ${shop}` : 'na loja'), of: (shop) => (shop ? `do ${shop}` : 'da loja') },
};
/**
 * A platform's own settings that a note tells a person to change, by the platform's title; a
 * platform without the setting gets the note without that advice (Shopify has no tax-rounding
 * setting: it always rounds per line).
 */
const PLATFORM_SETTINGS: Record<string, Record<'roundAtSubtotal' | 'roundAtSubtotalShort' | 'shippingClass', Record<Lang, string>>> = {
  WooCommerce: {
    roundAtSubtotal: {
      en: 'Turn on WooCommerce > Settings > Tax > "Round tax at subtotal level, instead of rounding per line" so the shop rounds like the invoice',
      pt: 'Ative em WooCommerce > Definições > Impostos a opção "Arredondar imposto ao nível do subtotal, em vez de arredondar por linha" para que a loja arredonde como a fatura.',
    },
    roundAtSubtotalShort: {
      en: 'The shop rounds tax per line: turn on WooCommerce > Settings > Tax > "Round tax at subtotal level" so it rounds per rate as the invoice does (measured: every single-rate order with prices without tax and no shipping or fees then matches)',
      pt: 'A loja arredonda o imposto por linha: ative em WooCommerce > Definições > Impostos a opção "Arredondar imposto ao nível do subtotal" para que arredonde por taxa, como a fatura (medido: todas as encomendas com uma só taxa, preços sem IVA e sem portes nem encargos passam então a coincidir).',
    },
    shippingClass: { en: ' (shipping tax class: based on cart items)', pt: ' (classe de imposto dos portes: com base nos artigos do carrinho)' },
  },
};
type PlatformSetting = 'roundAtSubtotal' | 'roundAtSubtotalShort' | 'shippingClass';
const settingOf = (shop: string | undefined, setting: PlatformSetting): Record<Lang, string> | undefined =>
  shop !== undefined && Object.prototype.hasOwnProperty.call(PLATFORM_SETTINGS, shop) ? PLATFORM_SETTINGS[shop][setting] : undefined;
/** The platform's setting to change, after `lead`; nothing for a platform without it. */
const settingAdvice = (lang: Lang, shop: string | undefined, setting: PlatformSetting, lead: string): string => {
  const advice = settingOf(shop, setting);
  return advice ? `${lead}${advice[lang]}` : '';
};

/** "the buyer" or the billing company, as the held-company messages name it. */
const whoEn = (company: string): string => company || 'the buyer';
const whoPt = (company: string, capital = false): string => (company ? `${capital ? 'A' : 'a'} empresa "${company}"` : capital ? 'O comprador' : 'o comprador');
/** What fields a schema refused, for Portuguese (the English keeps the schema's own words). */
const fieldsPt = (fields: string): string =>
  fields
    .split(', ')
    .map((field) => (field === '(payload)' ? 'o conteúdo inteiro' : `"${field}"`))
    .join(', ');

const SIMPLIFIED_WHY: Record<string, Record<Lang, string>> = {
  retail: { en: 'retail goods to consumers', pt: 'bens vendidos a retalho a consumidores' },
  services: { en: 'the order includes services', pt: 'a encomenda inclui serviços' },
  business: { en: 'business buyer', pt: 'o comprador é uma empresa' },
  'not-retailer': { en: 'seller is not a retailer', pt: 'o vendedor não é retalhista' },
};

const MISSING: Record<string, Record<Lang, string>> = {
  name: { en: 'name', pt: 'o nome' },
  address: { en: 'address', pt: 'a morada' },
  'name-address': { en: 'name and address', pt: 'o nome e a morada' },
};

const REGION_SOURCE: Record<string, Record<Lang, string>> = {
  setting: { en: 'setting dispatchRegion', pt: 'definição dispatchRegion' },
  'store-address': { en: "the shop's store address", pt: 'morada da loja' },
  'load-address': { en: "the waybill's load address (waybill.loadAddress)", pt: 'local de carga das guias (waybill.loadAddress)' },
  assumed: { en: 'dispatchRegion not set, no store address read: mainland assumed', pt: 'dispatchRegion não definida e morada da loja por ler: assumido o continente' },
};
const source = (lang: Lang, key: string): string => REGION_SOURCE[key]?.[lang] ?? key;

/** Why an invoice is due when it is: an advance payment (art. 36(1)(c)) or a sale (art. 36(1)(a)). */
const DEADLINE_BASIS = catalogue({
  advance: words(
    { day: S },
    {
      pt: (p) => `pagamento em ${datePt(p.day)}, antes da entrega: a fatura de um adiantamento emite-se no dia em que este é recebido (art. 36.º, n.º 1, alínea c), do CIVA)`,
      en: (p) => `paid on ${p.day} before delivery: an advance payment's invoice is due the day it is received (CIVA art. 36(1)(c))`,
    },
  ),
  sale: words({ day: S }, { pt: (p) => `venda em ${datePt(p.day)}: cinco dias úteis (art. 36.º, n.º 1, alínea a), do CIVA)`, en: (p) => `sold on ${p.day}: five business days (CIVA art. 36(1)(a))` }),
});
const deadlineBasis = (lang: Lang, basis: string, day: string): string => DEADLINE_BASIS.say(lang, basis === 'advance' ? 'advance' : 'sale', { day });

/** The subject of a late-issue note: "Order #5001" / "Refund 7003". */
const subjectEn = (subject: string, id: string | number): string => (subject === 'refund' ? `Refund ${id}` : `Order #${id}`);

const REASON = { why: S, country: S, vat: S, regime: S, placeWhy: S, place: S, placeCode: S };

/** The reason params of line `i` of the "different codes" list (suffix `_i`). */
const reasonAt = (p: Params, i: number): ExemptionReasonParams => {
  const get = (key: string): string => String(p[`${key}_${i}`] ?? '');
  return { why: get('why'), country: get('country'), vat: get('vat'), regime: get('regime'), placeWhy: get('placeWhy'), place: get('place'), placeCode: get('placeCode') };
};
const codesList = (lang: Lang, p: Params): string => {
  const items: string[] = [];
  for (let i = 0; i < Number(p.count ?? 0); i += 1) {
    items.push(`"${String(p[`line_${i}`] ?? '')}" ${String(p[`code_${i}`] ?? '')} (${exemptionReasonWords(lang, reasonAt(p, i))})`);
  }
  return items.join('; ');
};

/** What would credit: a refund by its id, or the credit note of the whole invoice (`of: 'invoice'`; its refund id is the order's own). */
const CREDIT_SUBJECT: Record<'refund' | 'invoice', Record<Lang, (refund: string | number) => string>> = {
  refund: { en: (refund) => `Refund ${refund}`, pt: (refund) => `O reembolso ${refund}` },
  invoice: { en: () => 'The credit note for the whole invoice', pt: () => 'A nota de crédito da fatura inteira' },
};

type CreditOverParams = { refund: string | number; amount: string; invoice: string; invoiced: string; earlier: string; currency?: string; of?: 'refund' | 'invoice'; shop?: string };

/** A credit note over what was invoiced, per language (English keeps the library's plain amounts). */
const CREDIT_OVER: Record<Lang, (p: CreditOverParams, what: string, earlier: boolean) => string> = {
  en: (p, what, earlier) =>
    `${CREDIT_SUBJECT[p.of ?? 'refund'].en(p.refund)} would credit ${p.amount} (net) of ${what}, but invoice ${p.invoice} has ${p.invoiced}` +
    `${earlier ? ` and earlier credit notes already credit ${p.earlier}` : ''}: a credit note never credits more than was invoiced ` +
    `(CIVA art. 29(7), 78(2)). Correct the refund ${SHOP_NAMED.en.where(p.shop)}, or settle the difference by hand`,
  pt: (p, what, earlier) =>
    `${CREDIT_SUBJECT[p.of ?? 'refund'].pt(p.refund)} creditaria ${money(p.amount, p.currency)} (sem IVA) ${what}, mas a fatura ${p.invoice} tem ${money(p.invoiced, p.currency)}` +
    `${earlier ? ` e notas de crédito anteriores já creditam ${money(p.earlier, p.currency)}` : ''}: uma nota de crédito nunca credita mais do que foi faturado ` +
    `(art. 29.º, n.º 7, e art. 78.º, n.º 2, do CIVA). Corrija o reembolso ${SHOP_NAMED.pt.where(p.shop)} ou regularize a diferença à mão.`,
};

const creditOver = (lang: Lang, p: CreditOverParams, what: string): string => CREDIT_OVER[lang](p, what, Number(p.earlier) > 0);

const CREDIT = { refund: z.union([S, N]), amount: S, invoice: S, invoiced: S, earlier: S, currency: OPT, of: z.enum(['refund', 'invoice']).optional(), shop: OPT };

// --- the catalogue ----------------------------------------------------------------------------

const CATALOGUE = {
  // The order as a whole
  'order-payload-invalid': entry(
    { fields: S, issues: S },
    (p) => `the order payload is not usable: ${p.issues}`,
    (p) => `Os dados recebidos da encomenda não são utilizáveis; campos com problemas: ${fieldsPt(p.fields)}.`,
  ),
  'refund-payload-invalid': entry(
    { refund: S, fields: S, issues: S },
    (p) => `refund ${p.refund} is not usable: ${p.issues}`,
    (p) => `Os dados do reembolso ${p.refund} não são utilizáveis; campos com problemas: ${fieldsPt(p.fields)}.`,
  ),
  'draft-status': entry(
    { status: S },
    (p) => `status "${p.status}" is a cart, not an order: no document`,
    (p) => `O estado "${p.status}" é de um carrinho, não de uma encomenda: não há documento.`,
  ),
  'unpaid-status': entry(
    { status: S },
    (p) =>
      `status "${p.status}" is not a paid order: no invoice is issued for it. To invoice orders in this status (e.g. bank transfers on hold), list it in the mapping setting invoiceUnpaidStatuses`,
    (p) =>
      `O estado "${p.status}" não é de uma encomenda paga: não se emite fatura. Para faturar encomendas neste estado (por exemplo, transferências bancárias por confirmar), acrescente-o à definição de mapeamento invoiceUnpaidStatuses.`,
  ),
  'no-sale-date': entry(
    {},
    () => 'the order has no date_paid, date_completed or date_created',
    () => 'A encomenda não tem "date_paid", "date_completed" nem "date_created".',
  ),
  'nothing-to-invoice': entry(
    {},
    () => 'nothing to invoice: no lines with an amount',
    () => 'Nada a faturar: nenhuma linha tem valor.',
  ),
  'only-vouchers-sold': entry(
    { names: S, count: N },
    (p) =>
      `the order only sells ${p.count === 1 ? 'a gift card' : 'gift cards'} (${p.names}) without VAT: a multi-purpose voucher's sale is no supply (CIVA art. 7(13)-(14)), so there is nothing to invoice; ` +
      'the order that spends the card is invoiced at the full price. Nothing was issued: mark this order as handled',
    (p) =>
      `A encomenda só vende ${p.count === 1 ? 'um cartão-oferta' : 'cartões-oferta'} (${p.names}) sem IVA: a venda de um vale multiúsos não é uma transmissão tributável (art. 7.º, n.os 13 e 14, do CIVA), por isso não há nada a faturar; ` +
      'a encomenda que usar o cartão é faturada pelo preço total. Nada foi emitido: marque esta encomenda como tratada.',
  ),
  'negative-order-total': entry(
    { total: S, currency: OPT },
    (p) => `the order total ${p.total} is negative`,
    (p) => `O total da encomenda (${money(p.total, p.currency)}) é negativo.`,
  ),
  'lines-differ-from-total': entry(
    { lines: S, totalKind: S, total: S, difference: S, currency: OPT },
    (p) => `the lines add up to ${p.lines} but ${totalLabelEn(p.totalKind, p.total)}; the difference ${p.difference} is more than rounding`,
    (p) =>
      `As linhas somam ${money(p.lines, p.currency)}, mas o ${totalNamePt(p.totalKind)} é ${money(p.total, p.currency)}; a diferença de ${money(p.difference, p.currency)} é maior do que um arredondamento.`,
  ),
  'internal-total-mismatch': entry(
    { amount: S, totalKind: S, total: S, currency: OPT },
    (p) => `internal: document total ${p.amount} differs from ${totalLabelEn(p.totalKind, p.total)}`,
    (p) => `Erro interno: o total do documento (${money(p.amount, p.currency)}) difere do ${totalNamePt(p.totalKind)} (${money(p.total, p.currency)}).`,
  ),
  'sale-invalid': entry(
    { platform: S, fields: S, problems: S },
    (p) =>
      `the order, as read from ${p.platform || 'the shop'}, is not a sale the invoicing law can read (${p.problems}): nothing was issued. Correct these fields of the order in the shop; if they look right there, the platform's reading of the order is wrong: report it with the order`,
    (p) =>
      `A encomenda, tal como foi lida ${p.platform ? `de ${p.platform}` : 'da loja'}, não é uma venda que as regras de faturação consigam ler; campos com problemas: ${fieldsPt(p.fields)}. Nada foi emitido. Corrija esses campos na encomenda; se lá estiverem certos, a leitura da encomenda pela plataforma está errada: comunique-o com a encomenda.`,
  ),
  'refund-invalid': entry(
    { refund: z.union([S, N]), fields: S, problems: S },
    (p) => `refund ${p.refund}, as read from the shop, is not a refund the invoicing law can read (${p.problems}): no credit note was issued. Correct the refund in the shop, or report it with the order`,
    (p) =>
      `O reembolso ${p.refund}, tal como foi lido da loja, não é um reembolso que as regras de faturação consigam ler; campos com problemas: ${fieldsPt(p.fields)}. Nenhuma nota de crédito foi emitida. Corrija o reembolso na loja, ou comunique-o com a encomenda.`,
  ),
  'document-invalid': entry(
    { fields: S, problems: S },
    (p) => `the document would be refused: ${p.problems}`,
    (p) => `O serviço recusaria o documento; campos com problemas: ${fieldsPt(p.fields)}.`,
  ),
  'external-id-too-long': entry(
    { id: S, max: N },
    (p) => `ExternalId "${p.id}" is longer than ${p.max} characters; shorten externalIdPrefix`,
    (p) => `O ExternalId "${p.id}" tem mais de ${p.max} caracteres; encurte externalIdPrefix.`,
  ),
  'unpaid-document-type': entry(
    { type: S },
    (p) => `Order not paid yet: document type ${p.type}`,
    (p) => `Encomenda ainda não paga: documento do ${docType(p.type)}.`,
  ),
  'simplified-tax-abroad': entry(
    { code: S, type: S },
    (p) => `Simplified invoice only where the tax is due in Portugal (CIVA art. 40(1)); ${p.code} sales get a full invoice: type ${p.type} used`,
    (p) => `Só há fatura simplificada quando o imposto é devido em Portugal (${CIVA_40_1}); as vendas com ${p.code} levam uma fatura completa: usado o ${docType(p.type)}.`,
  ),
  'simplified-over-limit': entry(
    { total: S, limit: S, why: S, type: S },
    (p) => `Simplified invoice not allowed for EUR ${p.total} (CIVA art. 40(1): limit EUR ${p.limit}, ${SIMPLIFIED_WHY[p.why]?.en ?? p.why}): type ${p.type} used`,
    (p) => `Fatura simplificada não permitida para ${money(p.total)} (${CIVA_40_1}: limite de ${money(p.limit)}, ${SIMPLIFIED_WHY[p.why]?.pt ?? p.why}): usado o ${docType(p.type)}.`,
  ),
  'coupons-as-line-discounts': entry(
    { codes: S, shop: OPT },
    (p) => `Coupons ${p.codes} shown as line discounts as ${SHOP_NAMED.en.subject(p.shop)} spread them`,
    (p) =>
      p.codes.includes(', ')
        ? `Cupões ${quoteEach(p.codes)} apresentados como descontos nas linhas, tal como ${SHOP_NAMED.pt.subject(p.shop)} os repartiu.`
        : `Cupão ${quoteEach(p.codes)} apresentado como desconto nas linhas, tal como ${SHOP_NAMED.pt.subject(p.shop)} o repartiu.`,
  ),
  'gift-card-redeemed': entry(
    { names: S },
    (p) => `Gift card ${p.names} redeemed: a voucher is a payment, not a discount (CIVA art. 7(14)): invoiced at the full price`,
    (p) => `Cartão-oferta ${p.names} usado: um vale é um pagamento, não um desconto (art. 7.º, n.º 14, do CIVA): faturado pelo preço total.`,
  ),
  'consumer-invoice-identified': entry(
    { total: S },
    (p) => `Invoice of EUR ${p.total} to a consumer: issued with the consumer NIF and the buyer's name and address`,
    (p) => `Fatura de ${money(p.total)} a um consumidor: emitida com o NIF de consumidor final e o nome e a morada do comprador.`,
  ),
  'consumer-invoice-unidentified': entry(
    { total: S, missing: S, from: S },
    (p) => `Invoice of EUR ${p.total} to a consumer without the buyer's ${MISSING[p.missing]?.en ?? p.missing}: from EUR ${p.from} the invoice names the buyer`,
    (p) => `Fatura de ${money(p.total)} a um consumidor sem ${MISSING[p.missing]?.pt ?? p.missing} do comprador: a partir de ${money(p.from)} a fatura identifica o comprador.`,
  ),
  'consumer-invoice-unidentified-held': entry(
    { total: S, missing: S, from: S },
    (p) =>
      `Invoice of EUR ${p.total} to a consumer without the buyer's ${MISSING[p.missing]?.en ?? p.missing}: from EUR ${p.from} the invoice names the buyer; held until the billing name and address are on the order`,
    (p) =>
      `Fatura de ${money(p.total)} a um consumidor sem ${MISSING[p.missing]?.pt ?? p.missing} do comprador: a partir de ${money(p.from)} a fatura identifica o comprador. Fica retida até a encomenda ter o nome e a morada de faturação.`,
  ),
  'business-buyer-address-missing': entry(
    { buyer: S, nif: S, country: S },
    (p) =>
      `the business buyer "${p.buyer}" (NIF ${p.country} ${p.nif}) has no address on the order: an invoice carries the buyer's seat or domicile (CIVA art. 36(5)(a)). ` +
      'Complete the billing address (street, post code, city) in the shop, then release the hold',
    (p) =>
      `O comprador empresa "${p.buyer}" (NIF ${p.country} ${p.nif}) não tem morada na encomenda: a fatura indica a sede ou o domicílio do adquirente (art. 36.º, n.º 5, alínea a), do CIVA). ` +
      'Complete a morada de faturação (rua, código postal, localidade) na loja e depois liberte a retenção.',
  ),
  'invoice-deadline': entry(
    { due: S, basis: S, day: S },
    (p) => `Deadline for this invoice: ${p.due} (${deadlineBasis('en', p.basis, p.day)})`,
    (p) => `Prazo desta fatura: ${datePt(p.due)} (${deadlineBasis('pt', p.basis, p.day)}).`,
  ),
  'invoice-late': entry(
    { subject: S, id: z.union([S, N]), issued: S, due: S, basis: S, day: S },
    (p) =>
      `${subjectEn(p.subject, p.id)}: issued on ${p.issued}, after its deadline ${p.due} (${deadlineBasis('en', p.basis, p.day)}); ` +
      'the document is dated the day it is issued, as the law requires',
    (p) =>
      `Encomenda #${p.id}: fatura emitida em ${datePt(p.issued)}, depois do prazo de ${datePt(p.due)} (${deadlineBasis('pt', p.basis, p.day)}); ` +
      'o documento tem a data do dia em que é emitido, como a lei exige.',
  ),
  'issued-late': entry(
    { subject: S, id: z.union([S, N]), sale: S, issued: S },
    (p) =>
      `${subjectEn(p.subject, p.id)} of ${p.sale} issued on ${p.issued}, more than 5 business days later (CIVA art. 36(1)(a)); ` +
      'the document is dated the day it is issued, as the law requires',
    (p) =>
      `${p.subject === 'refund' ? `Reembolso ${p.id} de ${datePt(p.sale)}: nota de crédito emitida` : `Encomenda #${p.id} de ${datePt(p.sale)}: documento emitido`} em ${datePt(p.issued)}, ` +
      'mais de 5 dias úteis depois (art. 36.º, n.º 1, alínea a), do CIVA); o documento tem a data do dia em que é emitido, como a lei exige.',
  ),

  // Holds of the whole order
  'total-differs-held': entry(
    { difference: S, currency: OPT },
    (p) => `Held: the document total would differ from the shop's by ${p.difference} (unreachableTotal: hold)`,
    (p) => `Retida: o total do documento diferiria do total da loja em ${money(p.difference, p.currency)} (unreachableTotal: "hold").`,
  ),
  'm16-needs-vies': entry(
    { vat: S },
    (p) =>
      `M16 (intra-EU supply, RITI art. 14) needs the buyer's VAT number ${p.vat} valid in VIES (RITI art. 14(1)(a), Lei 49/2020), and no VIES answer confirmed it. ` +
      "The connector asks VIES by default (the tenant's vies block); a caller of the library passes checkVatNumber's verdict; viesRequiredForM16: false issues on the number's format alone",
    (p) =>
      `O M16 (transmissão intracomunitária, art. 14.º do RITI) exige que o número de IVA do comprador, ${p.vat}, seja válido no VIES (art. 14.º, n.º 1, alínea a), do RITI, Lei 49/2020), e nenhuma resposta do VIES o confirmou. ` +
      'O conector consulta o VIES por omissão (bloco vies da loja); quem usa a biblioteca passa-lhe o veredicto de checkVatNumber; com viesRequiredForM16: "false", emite-se só pelo formato do número.',
  ),
  'm40-needs-vies': entry(
    { vat: S },
    (p) =>
      `M40 (a service to a business in another member state, reverse-charged by the buyer: CIVA art. 6(6)(a)) needs the buyer's VAT number ${p.vat} confirmed valid in VIES (Reg. 282/2011 art. 18(1)(a)), and no VIES answer confirmed it. ` +
      "The connector asks VIES by default (the tenant's vies block); a caller of the library passes checkVatNumber's verdict; viesRequiredForM40: false issues on the number's format alone",
    (p) =>
      `O M40 (serviço a uma empresa de outro Estado-Membro, autoliquidado pelo adquirente: art. 6.º, n.º 6, alínea a), do CIVA) exige que o número de IVA do comprador, ${p.vat}, seja confirmado válido no VIES (art. 18.º, n.º 1, alínea a), do Reg. 282/2011), e nenhuma resposta do VIES o confirmou. ` +
      'O conector consulta o VIES por omissão (bloco vies da loja); quem usa a biblioteca passa-lhe o veredicto de checkVatNumber; com viesRequiredForM40: "false", emite-se só pelo formato do número.',
  ),
  'oss-electronic-service': entry(
    { line: S, country: S, rate: S },
    (p) =>
      `The shop is registered in OSS: "${p.line}" is an electronically supplied service to a consumer in ${p.country}, taxed in ${p.country} once the shop's EU distance sales and such services pass EUR 10,000 together ` +
      `(CIVA art. 6-A, Lei 47/2020), and this document would carry Portuguese VAT (${p.rate}%). Held: issue it by hand as your accountant decides (oss.registered, services.electronic)`,
    (p) =>
      `A loja está registada no OSS: "${p.line}" é um serviço prestado por via eletrónica a um consumidor em ${p.country}, tributado em ${p.country} quando as vendas à distância e estes serviços da loja na UE passam, juntos, de 10 000,00 € ` +
      `(art. 6.º-A do CIVA, Lei 47/2020), e este documento levaria IVA português (${percentPt(p.rate)}). Por isso fica retida: emita o documento à mão, como o seu contabilista decidir (oss.registered, services.electronic).`,
  ),
  'regime-limit-crossed': entry(
    { year: N, total: S, amount: S, after: S, limit: S },
    (p) =>
      `This invoice of EUR ${p.amount} under the M10 regime would take the shop's ${p.year} turnover from EUR ${p.total} (its M10 documents so far) to EUR ${p.after}, past EUR ${p.limit}: ` +
      'the shop leaves the art. 53 regime at once and the invoice that crosses the limit already carries VAT (CIVA art. 53 as amended by DL 35/2025). ' +
      'Held and never issued as it is: with your accountant, set exemptions.regimeUntil to the day the shop left the regime, tax the products in the shop, and the order is issued with VAT',
    (p) =>
      `Esta fatura de ${money(p.amount)} no regime M10 levaria o volume de negócios da loja em ${p.year} de ${money(p.total)} (os seus documentos M10 até agora) a ${money(p.after)}, acima de ${money(p.limit)}: ` +
      'a loja sai de imediato do regime do art. 53.º e a fatura que ultrapassa o limite já leva IVA (art. 53.º do CIVA, na redação do DL 35/2025). ' +
      'Fica retida e nunca é emitida assim: com o seu contabilista, defina exemptions.regimeUntil com o dia em que a loja saiu do regime e aplique o imposto aos produtos na loja; a encomenda é então emitida com IVA.',
  ),
  'regime-limit-near': entry(
    { year: N, total: S, amount: S, after: S, limit: S },
    (p) =>
      `With this invoice the shop's M10 documents of ${p.year} come to EUR ${p.after} (EUR ${p.total} before it): past EUR ${p.limit} in the year the shop leaves the art. 53 regime at once, ` +
      'and the invoice that crosses it carries VAT (CIVA art. 53 as amended by DL 35/2025). Plan the change with your accountant (exemptions.regimeUntil)',
    (p) =>
      `Com esta fatura os documentos M10 da loja em ${p.year} somam ${money(p.after)} (${money(p.total)} antes dela): acima de ${money(p.limit)} no ano a loja sai de imediato do regime do art. 53.º, ` +
      'e a fatura que ultrapassa o limite leva IVA (art. 53.º do CIVA, na redação do DL 35/2025). Prepare a mudança com o seu contabilista (exemptions.regimeUntil).',
  ),
  'taxed-under-regime': entry(
    { line: S, rate: S, regime: S },
    (p) =>
      `"${p.line}" carries ${p.rate}% VAT, but the shop is configured in the ${p.regime} regime, whose sales carry none: VAT written on an invoice is owed by whoever writes it (CIVA art. 2(1)(c)). ` +
      'Held and never issued as it is: remove the tax from the product in the shop, or, if the shop has left the regime (DL 35/2025: past EUR 18,750 in the year), remove exemptions.regime',
    (p) =>
      `"${p.line}" leva IVA a ${percentPt(p.rate)}, mas a loja está configurada no regime ${p.regime}, cujas vendas não levam IVA: o IVA escrito numa fatura é devido por quem o escreve (art. 2.º, n.º 1, alínea c), do CIVA). ` +
      'Fica retida e nunca é emitida assim: retire o imposto do produto na loja ou, se a loja saiu do regime (DL 35/2025: mais de 18 750,00 € no ano), retire exemptions.regime.',
  ),
  'taxed-despite-code': entry(
    { line: S, rate: S, code: S },
    (p) =>
      `"${p.line}" carries ${p.rate}% VAT, but the accountant configured ${p.code} for it (exemptions.byProduct), which covers this buyer: VAT written on an invoice is owed by whoever writes it (CIVA art. 2(1)(c)). ` +
      'Held and never issued as it is: remove the tax from the product in the shop, or correct its code',
    (p) =>
      `"${p.line}" leva IVA a ${percentPt(p.rate)}, mas o contabilista configurou-lhe o ${p.code} (exemptions.byProduct), que abrange este comprador: o IVA escrito numa fatura é devido por quem o escreve (art. 2.º, n.º 1, alínea c), do CIVA). ` +
      'Fica retida e nunca é emitida assim: retire o imposto do produto na loja ou corrija o código.',
  ),
  'voucher-sale-taxed': entry(
    { line: S, rate: S },
    (p) =>
      `"${p.line}" is named like a gift card (giftCardFeeNames: multi-purpose vouchers) and carries ${p.rate}% VAT: a multi-purpose voucher's transfer is no supply, its VAT is due when it is redeemed (CIVA art. 7(13)-(14)), and VAT written on an invoice is owed (art. 2(1)(c)). ` +
      'Held and never issued as it is: sell the card without tax, or, if it is a single-purpose voucher (taxed when sold), take its name out of giftCardFeeNames',
    (p) =>
      `"${p.line}" tem nome de cartão-oferta (giftCardFeeNames: vales multiúsos) e leva IVA a ${percentPt(p.rate)}: a transmissão de um vale multiúsos não é uma operação tributável, o IVA é devido quando é utilizado (art. 7.º, n.os 13 e 14, do CIVA), e o IVA escrito numa fatura é devido (art. 2.º, n.º 1, alínea c)). ` +
      'Fica retida e nunca é emitida assim: venda o cartão sem imposto ou, tratando-se de um vale de finalidade única (tributado na venda), retire o seu nome de giftCardFeeNames.',
  ),
  'unknown-negative-fee': entry(
    { names: S, shop: OPT },
    (p) =>
      `${p.names}: a negative fee without VAT on a taxed order. If it is a redeemed gift card, it is a payment and does not lower the taxable amount (CIVA art. 7(14)): ` +
      `name such fees in giftCardFeeNames and the invoice (at the full price) is issued; if it is a discount, it must lower the VAT too (art. 16(6)(b)): give the fee the tax ${SHOP_NAMED.en.where(p.shop)}`,
    (p) =>
      `${p.names}: um encargo negativo sem IVA numa encomenda tributada. Caso seja um cartão-oferta usado, é um pagamento e não reduz o valor tributável (art. 7.º, n.º 14, do CIVA): ` +
      `indique esses encargos em giftCardFeeNames e a fatura é emitida pelo preço total; caso seja um desconto, tem de reduzir também o IVA (art. 16.º, n.º 6, alínea b), do CIVA): dê ao encargo o imposto ${SHOP_NAMED.pt.where(p.shop)}.`,
  ),
  'address-abroad-kept': entry(
    { country: S, postcode: S },
    (p) => `the buyer's Portuguese NIF makes the client's country PT, and the billing address in ${p.country} keeps its own post code and country in the address text${p.postcode ? ` (${p.postcode})` : ''} (CIVA art. 36(5)(a))`,
    (p) => `o NIF português do comprador faz de PT o país do cliente, e a morada de faturação em ${p.country} mantém o seu código postal e o seu país no texto da morada${p.postcode ? ` (${p.postcode})` : ''} (art. 36.º, n.º 5, alínea a), do CIVA).`,
  ),
  'tip-left-out': entry(
    { names: S, count: N },
    (p) =>
      `${p.names} ${p.count === 1 ? 'is a tip' : 'are tips'} the shop charged no VAT on: a voluntary tip is no consideration for the supply (CIVA art. 16(1): the taxable amount is what is paid for it) and is left off the invoice. ` +
      'Record it apart; if the buyer had to pay it (a service charge), it is part of the price: tax it in the shop, or take its word out of exemptions.tipWords',
    (p) =>
      `${p.names} ${p.count === 1 ? 'é uma gorjeta' : 'são gorjetas'} sem IVA na loja: uma gorjeta voluntária não é contrapartida da venda (art. 16.º, n.º 1, do CIVA: o valor tributável é o que se paga por ela) e fica fora da fatura. ` +
      'Registe-a à parte; se o comprador era obrigado a pagá-la (uma taxa de serviço), faz parte do preço: aplique-lhe o imposto na loja ou retire a palavra de exemptions.tipWords.',
  ),
  'voucher-sold-left-out': entry(
    { names: S, count: N, amount: S, currency: OPT },
    (p) =>
      `${p.names} ${p.count === 1 ? 'is a gift card' : 'are gift cards'} sold for ${p.amount} without VAT: a multi-purpose voucher's sale is no supply, its VAT is due when it is redeemed (CIVA art. 7(13)-(14)). ` +
      'The invoice covers the rest of the order and leaves the card out; the order that spends it is invoiced at the full price',
    (p) =>
      `${p.names} ${p.count === 1 ? 'é um cartão-oferta vendido' : 'são cartões-oferta vendidos'} por ${money(p.amount, p.currency)} sem IVA: a venda de um vale multiúsos não é uma transmissão tributável, o IVA é devido quando é utilizado (art. 7.º, n.os 13 e 14, do CIVA). ` +
      'A fatura cobre o resto da encomenda e deixa o cartão de fora; a encomenda que o usar é faturada pelo preço total.',
  ),
  'voucher-refund-left-out': entry(
    { refund: z.union([S, N]), names: S, count: N, amount: S, currency: OPT },
    (p) =>
      `Refund ${p.refund} gives back ${p.amount} for ${p.count === 1 ? 'a gift card' : 'gift cards'} sold (${p.names}): their sale was no supply and is not on the invoice (CIVA art. 7(13)-(14)), so that part is not credited`,
    (p) =>
      `O reembolso ${p.refund} devolve ${money(p.amount, p.currency)} ${p.count === 1 ? 'de um cartão-oferta vendido' : 'de cartões-oferta vendidos'} (${p.names}): a sua venda não foi uma transmissão tributável e não está na fatura (art. 7.º, n.os 13 e 14, do CIVA), por isso essa parte não é creditada.`,
  ),
  'only-vouchers-refunded': entry(
    { refund: z.union([S, N]), names: S, count: N },
    (p) =>
      `refund ${p.refund} only gives back ${p.count === 1 ? 'a gift card' : 'gift cards'} sold (${p.names}): their sale was no supply and is not on the invoice (CIVA art. 7(13)-(14)), so there is nothing to credit. Nothing was issued: mark this refund as handled`,
    (p) =>
      `O reembolso ${p.refund} só devolve ${p.count === 1 ? 'um cartão-oferta vendido' : 'cartões-oferta vendidos'} (${p.names}): a sua venda não foi uma transmissão tributável e não está na fatura (art. 7.º, n.os 13 e 14, do CIVA), por isso não há nada a creditar. Nada foi emitido: marque este reembolso como tratado.`,
  ),
  'voucher-sold-held': entry(
    { names: S, count: N, amount: S, currency: OPT },
    (p) =>
      `${p.names} ${p.count === 1 ? 'is a gift card' : 'are gift cards'} sold for ${p.amount} without VAT (a multi-purpose voucher: no supply when sold, CIVA art. 7(13)-(14)), and the accountant asked to decide such sales by hand (giftCardSales: hold). ` +
      'Issue what the accountant decides in the MagniFinance back-office, or set giftCardSales: left-out to invoice the rest of the order without the card',
    (p) =>
      `${p.names} ${p.count === 1 ? 'é um cartão-oferta vendido' : 'são cartões-oferta vendidos'} por ${money(p.amount, p.currency)} sem IVA (um vale multiúsos: a venda não é tributável, art. 7.º, n.os 13 e 14, do CIVA), e o contabilista pediu para decidir estas vendas à mão (giftCardSales: "hold"). ` +
      'Emita o que o contabilista decidir no back-office da MagniFinance, ou defina giftCardSales: "left-out" para faturar o resto da encomenda sem o cartão.',
  ),
  'donation-left-out': entry(
    { names: S, count: N, amount: S, currency: OPT },
    (p) =>
      `${p.names} ${p.count === 1 ? 'is a donation' : 'are donations'} of ${p.amount}: ` +
      'a donation is no consideration for a supply (CIVA art. 1(1)(a), 4(1)) and is never an invoice line. The invoice leaves it out; record the donation apart, ' +
      'or, if it is a charge, take its word out of exemptions.donationWords',
    (p) =>
      `${p.names} ${p.count === 1 ? 'é um donativo' : 'são donativos'} de ${money(p.amount, p.currency)}: ` +
      'um donativo não é contrapartida de nenhuma transmissão (art. 1.º, n.º 1, alínea a), e art. 4.º, n.º 1, do CIVA) e nunca é linha de fatura. ' +
      (p.count === 1
        ? 'A fatura deixa-o de fora; registe o donativo à parte ou, caso seja um encargo, retire a palavra correspondente de exemptions.donationWords.'
        : 'A fatura deixa-os de fora; registe os donativos à parte ou, caso sejam encargos, retire as palavras correspondentes de exemptions.donationWords.'),
  ),

  // The buyer
  'company-nif-invalid': entry(
    { nif: S, company: S },
    (p) =>
      `The tax number ${p.nif} given for ${whoEn(p.company)} is not valid (CIVA art. 36(5)(a): a company's invoice must carry its NIF); correct it on the order (meta with the NIF) and save the order.`,
    (p) =>
      `O NIF "${p.nif}" indicado para ${whoPt(p.company)} não é válido (art. 36.º, n.º 5, alínea a), do CIVA: a fatura de uma empresa tem de levar o NIF dela); corrija-o na encomenda (no campo meta do NIF) e guarde a encomenda.`,
  ),
  'company-vies-invalid': entry(
    { vat: S, company: S },
    (p) =>
      `The VAT registry (VIES) says VAT number ${p.vat} of ${whoEn(p.company)} is not valid (RITI art. 14: an intra-EU supply needs the buyer's valid VAT number); correct it on the order, or ask the buyer, and save the order.`,
    (p) =>
      `Segundo o registo de IVA (VIES), o número de IVA ${p.vat} d${whoPt(p.company)} não é válido (art. 14.º do RITI: uma transmissão intracomunitária exige um número de IVA válido do comprador); corrija-o na encomenda, ou pergunte ao comprador, e guarde a encomenda.`,
  ),
  'company-vat-format': entry(
    { vat: S, company: S, country: S },
    (p) =>
      `The VAT number ${p.vat} given for ${whoEn(p.company)} does not have the format of ${p.country} VAT numbers (RITI art. 14: an intra-EU supply needs the buyer's valid VAT number); correct it on the order and save the order.`,
    (p) =>
      `O número de IVA "${p.vat}" indicado para ${whoPt(p.company)} não tem o formato dos números de IVA de ${p.country} (art. 14.º do RITI: uma transmissão intracomunitária exige um número de IVA válido do comprador); corrija-o na encomenda e guarde a encomenda.`,
  ),
  'company-typed-consumer-nif': entry(
    { company: S, consumerNif: S },
    (p) =>
      `${whoEn(p.company)} typed the consumer NIF ${p.consumerNif}, but a company's invoice must carry its own NIF (CIVA art. 36(5)(a)); ask for its NIF, put it on the order (meta with the NIF) and save the order.`,
    (p) =>
      `${whoPt(p.company, true)} indicou o NIF de consumidor final ${p.consumerNif}, mas a fatura de uma empresa tem de levar o NIF dela (art. 36.º, n.º 5, alínea a), do CIVA); peça-lhe o NIF, ponha-o na encomenda (no campo meta do NIF) e guarde a encomenda.`,
  ),
  'credit-note-invoice-buyer': entry(
    { nif: S, orderNif: S },
    (p) =>
      `the credit note names the buyer its invoice carried, tax number ${p.nif} (a credit note corrects that invoice: CIVA art. 29(7), 78(2))${p.orderNif ? `, not the ${p.orderNif} the order gives now` : ''}`,
    (p) =>
      `A nota de crédito identifica o comprador que a fatura levava, com o número fiscal ${p.nif} (uma nota de crédito corrige essa fatura: art. 29.º, n.º 7, e art. 78.º, n.º 2, do CIVA)${p.orderNif ? `, e não o ${p.orderNif} que a encomenda indica agora` : ''}.`,
  ),
  'vies-valid': entry(
    { vat: S },
    (p) => `VAT number ${p.vat} confirmed valid by the VAT registry (VIES)`,
    (p) => `Número de IVA ${p.vat} confirmado como válido pelo registo de IVA (VIES).`,
  ),
  'vies-invalid-consumer': entry(
    { vat: S, consumerNif: S },
    (p) => `The VAT registry (VIES) says VAT number ${p.vat} is not valid: consumer NIF ${p.consumerNif} used`,
    (p) => `Segundo o registo de IVA (VIES), o número de IVA ${p.vat} não é válido: usado o NIF de consumidor final ${p.consumerNif}.`,
  ),
  'vat-format-consumer': entry(
    { vat: S, country: S, consumerNif: S },
    (p) => `VAT number ${p.vat} does not have the format of ${p.country} VAT numbers: consumer NIF ${p.consumerNif} used`,
    (p) => `O número de IVA "${p.vat}" não tem o formato dos números de IVA de ${p.country}: usado o NIF de consumidor final ${p.consumerNif}.`,
  ),
  'no-nif': entry(
    { consumerNif: S },
    (p) => `No NIF on the order: consumer NIF ${p.consumerNif} used`,
    (p) => `Sem NIF na encomenda: usado o NIF de consumidor final ${p.consumerNif}.`,
  ),
  'consumer-nif-given': entry(
    { consumerNif: S },
    (p) => `Consumer NIF ${p.consumerNif} given on the order`,
    (p) => `NIF de consumidor final ${p.consumerNif} indicado na encomenda.`,
  ),
  'nif-invalid': entry(
    { nif: S, consumerNif: S },
    (p) => `NIF ${p.nif} invalid: consumer NIF ${p.consumerNif} used`,
    (p) => `NIF "${p.nif}" inválido: usado o NIF de consumidor final ${p.consumerNif}.`,
  ),
  'vat-number-kept': entry(
    { vat: S, country: S },
    (p) => `VAT number ${p.vat} kept with its country ${p.country}`,
    (p) => `Número de IVA ${p.vat} mantido com o seu país, ${p.country}.`,
  ),
  'vat-country-differs': entry(
    { vatCountry: S, country: S },
    (p) => `VAT number country ${p.vatCountry} differs from the billing country ${p.country}`,
    (p) => `O país do número de IVA (${p.vatCountry}) difere do país de faturação (${p.country}).`,
  ),
  'portuguese-nif-abroad': entry(
    { nif: S, country: S },
    (p) => `Portuguese NIF ${p.nif} kept although the billing address is in ${p.country} (CIVA art. 36(16))`,
    (p) => `NIF português ${p.nif} mantido, embora a morada de faturação seja em ${p.country} (art. 36.º, n.º 16, do CIVA).`,
  ),
  'vat-number-prefixed': entry(
    { vat: S, read: S, country: S },
    (p) => `VAT number ${p.vat} read as ${p.read} (billing country ${p.country}, no prefix typed)`,
    (p) => `Número de IVA ${p.vat} lido como ${p.read} (país de faturação ${p.country}, escrito sem prefixo).`,
  ),
  'tax-id-unusable': entry(
    { taxId: S, consumerNif: S },
    (p) => `Tax id ${p.taxId} unusable: consumer NIF ${p.consumerNif} used`,
    (p) => `Número fiscal "${p.taxId}" inutilizável: usado o NIF de consumidor final ${p.consumerNif}.`,
  ),
  'tax-id-kept': entry(
    { taxId: S, country: S },
    (p) => `Tax id ${p.taxId} kept with the billing country ${p.country}`,
    (p) => `Número fiscal "${p.taxId}" mantido com o país de faturação, ${p.country}.`,
  ),
  'tax-id-kept-consumer': entry(
    { taxId: S, country: S },
    (p) => `Tax id ${p.taxId} kept with the billing country ${p.country}: no billing company, so the buyer is treated as a consumer for the services rule (CIVA art. 6(6))`,
    (p) =>
      `Número fiscal "${p.taxId}" mantido com o país de faturação, ${p.country}: sem empresa nos dados de faturação, o comprador é tratado como consumidor na regra dos serviços (art. 6.º, n.º 6, do CIVA).`,
  ),
  'postcode-not-portuguese': entry(
    { postcode: S },
    (p) => `Post code "${p.postcode}" is not a Portuguese post code (0000-000): left off the document`,
    (p) => `O código postal "${p.postcode}" não é um código postal português (0000-000): fica fora do documento.`,
  ),
  'email-unusable': entry(
    { email: S },
    (p) => `E-mail "${p.email}" is not usable: left off the document`,
    (p) => `O e-mail "${p.email}" não é utilizável: fica fora do documento.`,
  ),
  'client-name-shortened': entry(
    { name: S },
    (p) => `Client name shortened to 75 characters: "${p.name}"`,
    (p) => `Nome do cliente encurtado para 75 caracteres: "${p.name}".`,
  ),

  // Currency
  'euro-rate-ecb': entry(
    { currency: S, rate: S, day: S },
    (p) => `Order in ${p.currency}: EuroRate ${p.rate}, the ECB reference rate of ${p.day}`,
    (p) => `Encomenda em ${p.currency}: EuroRate ${p.rate}, a taxa de referência do BCE de ${datePt(p.day)}.`,
  ),
  'euro-rate-meta': entry(
    { currency: S, rate: S, key: S },
    (p) => `Order in ${p.currency}: EuroRate ${p.rate} from order meta ${p.key}`,
    (p) => `Encomenda em ${p.currency}: EuroRate ${p.rate} do campo meta "${p.key}" da encomenda.`,
  ),
  'euro-rate-static': entry(
    { currency: S, rate: S },
    (p) =>
      `Order in ${p.currency}: EuroRate ${p.rate} from the mapping settings (euroRates.${p.currency}), a fixed rate that may be stale: no ECB reference rate of the day was available`,
    (p) =>
      `Encomenda em ${p.currency}: EuroRate ${p.rate} das definições de mapeamento (euroRates.${p.currency}), uma taxa fixa que pode estar desatualizada: não havia taxa de referência do BCE para o dia.`,
  ),
  'euro-rate-unknown': entry(
    { currency: S, keys: S },
    (p) =>
      `the order is in ${p.currency} and no EuroRate is known: set euroRates.${p.currency} in the mapping settings ` +
      `or store the rate in order meta ${p.keys || '(no keys configured)'}`,
    (p) =>
      `A encomenda está em ${p.currency} e não se conhece a EuroRate: defina euroRates.${p.currency} nas definições de mapeamento ` +
      `ou guarde a taxa num campo meta da encomenda (${p.keys ? quoteEach(p.keys, ' / ') : 'nenhum configurado'}).`,
  ),

  // Taxes and rates
  'compound-tax': entry(
    { tax: S },
    (p) => `tax "${p.tax}" is compound; compound taxes cannot be put on a document`,
    (p) => `O imposto "${p.tax}" é composto; um imposto composto não pode constar de um documento.`,
  ),
  'tax-percent-unknown': entry(
    { tax: S, rateId: z.union([S, N]) },
    (p) => `the percentage of tax "${p.tax || `rate ${p.rateId}`}" is unknown: tax_lines has no rate_percent and no line taxed by it has an amount`,
    (p) => `A percentagem do imposto "${p.tax || `taxa ${p.rateId}`}" é desconhecida: "tax_lines" não tem "rate_percent" e nenhuma linha tributada por ele tem valor.`,
  ),
  'tax-percent-derived': entry(
    { tax: S, rateId: z.union([S, N]), percent: S },
    (p) => `Tax "${p.tax || `rate ${p.rateId}`}" has no rate_percent in the order: ${p.percent}% derived from the line taxes`,
    (p) => `O imposto "${p.tax || `taxa ${p.rateId}`}" não tem "rate_percent" na encomenda: usada a taxa de ${percentPt(p.percent)}, deduzida dos impostos das linhas.`,
  ),
  'line-tax-rate-unlisted': entry(
    { line: S, rateId: z.union([S, N]) },
    (p) => `line "${p.line}" uses tax rate id ${p.rateId}, which the order does not list`,
    (p) => `A linha "${p.line}" usa a taxa de imposto com o id ${p.rateId}, que a encomenda não lista.`,
  ),
  'line-tax-missing': entry(
    { line: S, tax: S },
    (p) => `Line "${p.line}" carries no ${p.tax} although the rate is listed: mapped as 0%`,
    (p) => `A linha "${p.line}" não leva o imposto "${p.tax}", embora a taxa esteja na lista da encomenda: tratada como 0 %.`,
  ),
  'line-several-rates': entry(
    { line: S, percent: S },
    (p) => `Line "${p.line}" has more than one tax rate: ${p.percent}% used`,
    (p) => `A linha "${p.line}" tem mais de uma taxa de imposto: usada a soma, ${percentPt(p.percent)}.`,
  ),
  'rate-not-portuguese': entry(
    { line: S, rate: S, day: S, mainland: S, madeira: S, azores: S, where: S },
    (p) =>
      `line "${p.line}" is taxed at ${p.rate}%, which is no Portuguese VAT rate in force on ${p.day} ` +
      `(mainland ${rateListWords('en', p.mainland)}, Madeira ${rateListWords('en', p.madeira)}, the Azores ${rateListWords('en', p.azores)}). ` +
      `If it is the VAT of the buyer's country (${p.where}): an EU distance sale taxed there is declared through OSS ` +
      `(CIVA art. 6-A, RITI art. 10, Lei 47/2020), and a MagniFinance document carries Portuguese VAT only; nothing was sent. ` +
      `Correct the shop's tax rates, or invoice this sale outside the connector`,
    (p) =>
      `A linha "${p.line}" tem IVA a ${percentPt(p.rate)}, que não é uma taxa de IVA portuguesa em vigor em ${datePt(p.day)} ` +
      `(continente ${rateListWords('pt', p.mainland)}, Madeira ${rateListWords('pt', p.madeira)}, Açores ${rateListWords('pt', p.azores)}). ` +
      `Caso seja o IVA do país do comprador (${p.where}): uma venda à distância na UE tributada nesse país declara-se pelo OSS ` +
      '(art. 6.º-A do CIVA, art. 10.º do RITI, Lei 47/2020), e um documento MagniFinance só leva IVA português; nada foi enviado. ' +
      'Corrija as taxas de imposto da loja ou fature esta venda fora do conector.',
  ),
  'rate-wrong-region': entry(
    { line: S, rate: S, regions: S, nature: S, region: S, source: S, allowed: S, day: S, rates: S },
    (p) => {
      const why =
        p.nature === 'P'
          ? `goods are taxed where their transport begins (CIVA art. 6(1)), and the shop dispatches from ${regionWords('en', p.region)} (${source('en', p.source)})`
          : p.nature === 'S-business'
            ? `a service to a Portuguese business is taxed where the business is established (CIVA art. 6(6)(a) as adapted to the regions): ${regionList('en', p.allowed, ' or ')} (its billing address), whatever region the shop is in`
            : `a service is taxed where ${p.allowed.includes('/') ? 'the business buying it or ' : ''}the shop is established (CIVA art. 6(6) as adapted to the regions): ${regionList('en', p.allowed, ' or ')} (${source('en', p.source)})`;
      return (
        `Line "${p.line}" carries ${p.rate}%, the VAT of ${regionList('en', p.regions, ' / ')}, but ${why}, whose rates on ${p.day} are ${rateListWords('en', p.rates)}. ` +
        `The buyer's postcode does not decide the rate: correct the shop's tax table, or the setting dispatchRegion if the goods leave from elsewhere`
      );
    },
    (p) => {
      const why =
        p.nature === 'P'
          ? `os bens são tributados onde começa o seu transporte (art. 6.º, n.º 1, do CIVA), e a loja expede a partir ${regionWords('pt', p.region)} (${source('pt', p.source)})`
          : p.nature === 'S-business'
            ? `um serviço prestado a uma empresa portuguesa é tributado onde a empresa está estabelecida (art. 6.º, n.º 6, alínea a), do CIVA, adaptado às regiões): ${regionList('pt', p.allowed, ' ou ', 'name')} (a sua morada de faturação), seja qual for a região da loja`
            : `um serviço é tributado onde ${p.allowed.includes('/') ? 'está estabelecida a empresa que o compra ou ' : ''}está estabelecida a loja (art. 6.º, n.º 6, do CIVA, adaptado às regiões): ${regionList('pt', p.allowed, ' ou ', 'name')} (${source('pt', p.source)})`;
      return (
        `A linha "${p.line}" tem IVA a ${percentPt(p.rate)}, a taxa ${regionList('pt', p.regions, ' / ')}, mas ${why}` +
        `${p.rates ? `, cujas taxas em ${datePt(p.day)} são ${rateListWords('pt', p.rates)}` : `, sem taxas conhecidas em ${datePt(p.day)}`}. ` +
        'O código postal do comprador não decide a taxa: corrija a tabela de impostos da loja, ou a definição dispatchRegion se os bens saem de outro local.'
      );
    },
  ),
  'service-buyer-region-unknown': entry(
    { line: S, rate: S, postcode: S },
    (p) =>
      `"${p.line}" is a service to a Portuguese business, taxed at the rate of the region where the business is established (CIVA art. 6(6)(a) as adapted to the regions: mainland 23/13/6, Madeira 22/12/4, the Azores 16/9/4), ` +
      `but its billing address ${p.postcode ? `(postcode "${p.postcode}") ` : ''}does not say which region that is. Held: put the company's Portuguese postcode on the order and save it, then release it`,
    (p) =>
      `"${p.line}" é um serviço prestado a uma empresa portuguesa, tributado à taxa da região onde a empresa está estabelecida (art. 6.º, n.º 6, alínea a), do CIVA, adaptado às regiões: continente 23/13/6 %, Madeira 22/12/4 %, Açores 16/9/4 %), ` +
      `mas a sua morada de faturação ${p.postcode ? `(código postal "${p.postcode}") ` : ''}não diz que região é. Fica retida: indique na encomenda o código postal português da empresa e guarde-a; depois liberte-a.`,
  ),
  'oss-distance-sale': entry(
    { country: S, rate: S },
    (p) =>
      `The shop is registered in OSS: goods sent to a consumer in ${p.country} are taxed in ${p.country} once the shop's EU distance sales pass EUR 10,000 ` +
      `(CIVA art. 6-A, RITI art. 10, Lei 47/2020), and this document would carry Portuguese VAT (${p.rate}%). Held: issue it by hand as your accountant decides (oss.registered)`,
    (p) =>
      `A loja está registada no OSS: os bens enviados a um consumidor em ${p.country} são tributados em ${p.country} quando as vendas à distância da loja na UE passam de 10 000,00 € ` +
      `(art. 6.º-A do CIVA, art. 10.º do RITI, Lei 47/2020), e este documento levaria IVA português (${percentPt(p.rate)}). Por isso fica retida: emita o documento à mão, como o seu contabilista decidir (oss.registered).`,
  ),
  'zero-vat-reason': entry(
    { code: S, ...REASON },
    (p) => `0% VAT: ${exemptionReasonWords('en', p)} (${p.code})`,
    (p) => `IVA a 0 %: ${exemptionReasonWords('pt', p)} (${p.code}).`,
  ),
  'zero-vat-no-reason': entry(
    { names: S, count: N, ...REASON },
    (p) =>
      `${p.names} ${p.count === 1 ? 'has' : 'have'} 0% VAT but no exemption reason applies (${exemptionReasonWords('en', p)}). ` +
      "A document must state the real reason of each exemption (CIVA art. 36(5)(e)): correct the shop's tax for this line, " +
      'or set the reason your accountant chose (exemptions.regime for the shop, exemptions.byProduct for the product, exemptions.byFee for a fee)',
    (p) =>
      `${p.names} ${p.count === 1 ? 'tem' : 'têm'} IVA a 0 %, mas nenhum motivo de isenção se aplica (${exemptionReasonWords('pt', p)}). ` +
      'Um documento tem de indicar o motivo real de cada isenção (art. 36.º, n.º 5, alínea e), do CIVA): corrija o imposto da loja para esta linha ' +
      'ou defina o motivo que o seu contabilista escolheu (exemptions.regime para a loja, exemptions.byProduct para o produto, exemptions.byFee para uma taxa).',
  ),
  /** Indexed params: count, then line_i, code_i and the reason's params with the suffix _i. */
  'zero-vat-codes-differ': {
    params: z.record(z.string(), z.union([S, N])).refine((p) => typeof p.count === 'number'),
    en: (p: Params) => `its 0% lines need different exemption codes and a document carries only one: ${codesList('en', p)}. Issue it by hand as separate documents, or split the order`,
    pt: (p: Params) => `As linhas a 0 % precisam de códigos de isenção diferentes e um documento só leva um: ${codesList('pt', p)}. Emita os documentos à mão, em separado, ou divida a encomenda.`,
  } satisfies Entry<Params>,
  'rounding-line-exemption': entry(
    { code: S },
    (p) => `The rounding line uses exemption code ${p.code} (roundingLine.exemptionCode)`,
    (p) => `A linha de arredondamento leva o código de isenção ${p.code} (roundingLine.exemptionCode).`,
  ),

  // Lines
  'line-quantity-zero': entry(
    { line: S, quantity: N },
    (p) => `Line "${p.line}" has quantity ${p.quantity}: left off the document`,
    (p) => `A linha "${p.line}" tem quantidade ${p.quantity}: fica fora do documento.`,
  ),
  'line-quantity-with-total': entry(
    { line: S, quantity: N, total: S, currency: OPT },
    (p) => `line "${p.line}" has quantity ${p.quantity} but a total of ${p.total}`,
    (p) => `A linha "${p.line}" tem quantidade ${p.quantity}, mas um total de ${money(p.total, p.currency)}.`,
  ),
  'line-negative-total': entry(
    { line: S, total: S, currency: OPT },
    (p) => `line "${p.line}" has a negative total ${p.total}`,
    (p) => `A linha "${p.line}" tem um total negativo (${money(p.total, p.currency)}).`,
  ),
  'free-sample': entry(
    { line: S },
    (p) => `Line "${p.line}" is free and untaxed (a sample or gift, CIVA art. 3(7): no supply): left off the document`,
    (p) => `A linha "${p.line}" é gratuita e sem imposto (amostra ou oferta, art. 3.º, n.º 7, do CIVA: não há transmissão): fica fora do documento.`,
  ),
  'shipping-negative': entry(
    { shipping: S },
    (p) => `shipping "${p.shipping}" has a negative total`,
    (p) => `Os portes "${p.shipping}" têm um total negativo.`,
  ),
  'free-shipping': entry(
    { shipping: S },
    (p) => `Free shipping "${p.shipping}" left off the document`,
    (p) => `Portes grátis "${p.shipping}" deixados fora do documento.`,
  ),
  'negative-fees-exceed': entry(
    { fees: S, products: S, currency: OPT },
    (p) => `negative fees of ${p.fees} exceed the products they would discount (${p.products})`,
    (p) => `Os encargos negativos de ${money(p.fees, p.currency)} excedem o valor dos produtos a que seriam descontados (${money(p.products, p.currency)}).`,
  ),
  'negative-fee-spread': entry(
    { names: S, amount: S, split: N, currency: OPT, shop: OPT },
    (p) => `Negative fee ${p.names} of ${p.amount} spread as a discount over the products${p.split ? ` following ${SHOP_NAMED.en.of(p.shop)} split of the fee across rates` : ''} (no negative lines)`,
    (p) =>
      `Encargo negativo ${p.names} de ${money(p.amount, p.currency)} repartido como desconto pelos produtos${p.split ? `, seguindo a repartição ${SHOP_NAMED.pt.of(p.shop)} pelas taxas` : ''} (sem linhas negativas).`,
  ),
  'shipping-rate-differs': entry(
    { shipping: S, rate: S, goodsRate: S, shop: OPT },
    (p) =>
      `shipping "${p.shipping}" is taxed at ${p.rate}% but the goods it carries at ${p.goodsRate}%: shipping is part of the goods' taxable amount (CIVA art. 16(5)(b)). ` +
      `Give shipping the goods' rate ${SHOP_NAMED.en.where(p.shop)}${settingAdvice('en', p.shop, 'shippingClass', '')}, or set shippingRate.otherRate: goods-rate`,
    (p) =>
      `Os portes "${p.shipping}" têm IVA a ${percentPt(p.rate)}, mas os bens que transportam estão a ${percentPt(p.goodsRate)}: os portes fazem parte do valor tributável dos bens (art. 16.º, n.º 5, alínea b), do CIVA). ` +
      `Dê aos portes a taxa dos bens ${SHOP_NAMED.pt.where(p.shop)}${settingAdvice('pt', p.shop, 'shippingClass', '')} ou defina shippingRate.otherRate: "goods-rate".`,
  ),
  'shipping-re-rated': entry(
    { shipping: S, from: S, to: S, gross: S, currency: OPT },
    (p) => `Shipping "${p.shipping}" re-rated from ${p.from}% to the goods' ${p.to}% (CIVA art. 16(5)(b)), keeping the ${p.gross} paid for it`,
    (p) =>
      `Portes "${p.shipping}" passados de ${percentPt(p.from)} para a taxa dos bens, ${percentPt(p.to)} (art. 16.º, n.º 5, alínea b), do CIVA), mantendo os ${money(p.gross, p.currency)} pagos por eles.`,
  ),
  'shipping-split': entry(
    { shipping: S },
    (p) => `Shipping "${p.shipping}" split over the goods' rates in proportion to their gross (CIVA art. 16(5)(b); shippingRate.mixedGoods: proportional)`,
    (p) =>
      `Portes "${p.shipping}" repartidos pelas taxas dos bens, na proporção do valor com IVA de cada uma (art. 16.º, n.º 5, alínea b), do CIVA; shippingRate.mixedGoods: "proportional").`,
  ),
  'fee-rate-differs': entry(
    { fee: S, rate: S, goodsRate: S },
    (p) =>
      `fee "${p.fee}" is taxed at ${p.rate}% but the goods it is charged with at ${p.goodsRate}%: a fee charged to the buyer (commission, packaging, insurance, cash on delivery) is part of the goods' taxable amount (CIVA art. 16(5)(b)). ` +
      "Give the fee the goods' rate (the tax class its plugin gives it), or set shippingRate.otherRate: goods-rate",
    (p) =>
      `O encargo "${p.fee}" tem IVA a ${percentPt(p.rate)}, mas os bens com que é cobrado estão a ${percentPt(p.goodsRate)}: um encargo cobrado ao comprador (comissão, embalagem, seguro, cobrança) faz parte do valor tributável dos bens (art. 16.º, n.º 5, alínea b), do CIVA). ` +
      'Dê ao encargo a taxa dos bens (a classe de imposto que o plugin lhe dá) ou defina shippingRate.otherRate: "goods-rate".',
  ),
  'fee-re-rated': entry(
    { fee: S, from: S, to: S, gross: S, currency: OPT },
    (p) => `Fee "${p.fee}" re-rated from ${p.from}% to the goods' ${p.to}% (CIVA art. 16(5)(b)), keeping the ${p.gross} paid for it`,
    (p) =>
      `Encargo "${p.fee}" passado de ${percentPt(p.from)} para a taxa dos bens, ${percentPt(p.to)} (art. 16.º, n.º 5, alínea b), do CIVA), mantendo os ${money(p.gross, p.currency)} pagos por ele.`,
  ),
  'fee-split': entry(
    { fee: S },
    (p) => `Fee "${p.fee}" split over the goods' rates in proportion to their gross (CIVA art. 16(5)(b); shippingRate.mixedGoods: proportional)`,
    (p) =>
      `Encargo "${p.fee}" repartido pelas taxas dos bens, na proporção do valor com IVA de cada uma (art. 16.º, n.º 5, alínea b), do CIVA; shippingRate.mixedGoods: "proportional").`,
  ),

  // Reaching the shop's total
  'rounding-net-moved': entry(
    { line: S, rate: S, net: S, before: S, totalKind: S, total: S, currency: OPT, shop: OPT },
    (p) =>
      `Rounding: net of "${p.line}" (${p.rate}% VAT) set to ${p.net} instead of ${p.before} so the document total equals ${totalLabelEn(p.totalKind, p.total)} ` +
      `(${SHOP_NAMED.en.subject(p.shop)} rounded the tax per line or on unrounded nets; the document rounds it once per rate)`,
    (p) =>
      `Arredondamento: o valor sem IVA de "${p.line}" (IVA a ${percentPt(p.rate)}) passa a ${money(p.net, p.currency)} em vez de ${money(p.before, p.currency)}, ` +
      `para que o total do documento seja igual ao ${totalNamePt(p.totalKind)} (${money(p.total, p.currency)}): ` +
      `${SHOP_NAMED.pt.subject(p.shop)} arredondou o imposto por linha ou sobre valores sem IVA não arredondados; o documento arredonda-o uma vez por taxa.`,
  ),
  'total-unreachable': entry(
    { totalKind: S, total: S, difference: S, currency: OPT, shop: OPT },
    (p) =>
      `Total: the document total differs from ${totalLabelEn(p.totalKind, p.total)} by ${p.difference}: ${SHOP_NAMED.en.subject(p.shop)} rounded the tax per line, ` +
      `the invoice rounds it once per rate, and no change of line nets reaches the shop total${settingAdvice('en', p.shop, 'roundAtSubtotal', '. ')}`,
    (p) =>
      `Total: o total do documento difere do ${totalNamePt(p.totalKind)} (${money(p.total, p.currency)}) em ${money(p.difference, p.currency)}: ${SHOP_NAMED.pt.subject(p.shop)} arredondou o imposto por linha, ` +
      `a fatura arredonda-o uma vez por taxa, e nenhuma alteração dos valores sem IVA das linhas chega ao total da loja.${settingAdvice('pt', p.shop, 'roundAtSubtotal', ' ')}`,
  ),
  'rounding-line-added': entry(
    { line: S, amount: S, totalKind: S, total: S, currency: OPT },
    (p) =>
      `Rounding: line "${p.line}" of ${p.amount} at 0% added so the document total ` +
      `equals ${totalLabelEn(p.totalKind, p.total)}; no change of line nets could reach it under per-rate tax rounding`,
    (p) =>
      `Arredondamento: acrescentada a linha "${p.line}" de ${money(p.amount, p.currency)} a 0 %, para que o total do documento seja igual ao ${totalNamePt(p.totalKind)} (${money(p.total, p.currency)}); ` +
      'nenhuma alteração dos valores sem IVA das linhas o alcançava com o imposto arredondado uma vez por taxa.',
  ),

  // Refunds and credit notes
  'refund-needs-invoice': entry(
    { refund: z.union([S, N]) },
    (p) => `refund ${p.refund} needs the number of the invoice it corrects`,
    (p) => `O reembolso ${p.refund} precisa do número da fatura que corrige.`,
  ),
  'invoice-number-too-long': entry(
    { invoice: S },
    (p) => `invoice number "${p.invoice}" is longer than 50 characters`,
    (p) => `O número de fatura "${p.invoice}" tem mais de 50 caracteres.`,
  ),
  'refund-zero': entry(
    { refund: z.union([S, N]) },
    (p) => `refund ${p.refund} has amount 0: no credit note`,
    (p) => `O reembolso ${p.refund} tem valor 0: não há nota de crédito.`,
  ),
  'refund-no-date': entry(
    { refund: z.union([S, N]) },
    (p) => `refund ${p.refund} has no date_created`,
    (p) => `O reembolso ${p.refund} não tem "date_created".`,
  ),
  'refund-without-items': entry(
    { refund: z.union([S, N]) },
    (p) => `Refund ${p.refund} lists no items: one amount line per VAT rate of what remains of the order, typed as what the order sold at that rate`,
    (p) => `O reembolso ${p.refund} não lista artigos: a nota de crédito leva uma linha de valor por cada taxa de IVA do que resta da encomenda, do mesmo tipo do que a encomenda vendeu a essa taxa.`,
  ),
  'refund-without-lines-held': entry(
    { refund: z.union([S, N]), amount: S, currency: OPT },
    (p) =>
      `Refund ${p.refund} gives back ${p.amount} that the shop recorded apart from the refunded items and shipping (an amount typed in the refund, such as goodwill), with no VAT rate of its own: ` +
      "at which rates it reduces the invoice is your accountant's call, so no credit note is issued by guessing one. Either refund that money against the items or the shipping in the shop (a new refund; this one stays as it is), " +
      "or, if your accountant agrees that such amounts reduce every rate of the invoice in proportion to what each sold, set refundWithoutLines: proportional (or release this credit note to credit it so once)",
    (p) =>
      `O reembolso ${p.refund} devolve ${money(p.amount, p.currency)} que a loja registou à parte dos artigos e dos portes reembolsados (um valor escrito no reembolso, como um gesto comercial), sem taxa de IVA própria: ` +
      'a que taxas reduz a fatura é uma decisão do seu contabilista, por isso não se emite uma nota de crédito a adivinhar. Reembolse esse dinheiro sobre os artigos ou os portes na loja (um novo reembolso; este fica como está) ' +
      'ou, se o contabilista concordar que estes valores reduzem cada taxa da fatura na proporção do que cada uma vendeu, defina refundWithoutLines: "proportional" (ou liberte esta nota de crédito para a creditar assim uma vez).',
  ),
  'refund-beyond-items': entry(
    { refund: z.union([S, N]), amount: S, currency: OPT },
    (p) => `Refund ${p.refund} is ${p.amount} more than its items: added as an amount line`,
    (p) => `O reembolso ${p.refund} é superior aos seus artigos em ${money(p.amount, p.currency)}: a diferença vai numa linha de valor.`,
  ),
  'credit-over-line': entry(
    { ...CREDIT, line: S },
    (p) => creditOver('en', p, `"${p.line}"`),
    (p) => creditOver('pt', p, `de "${p.line}"`),
  ),
  'credit-over-rate': entry(
    { ...CREDIT, rate: S },
    (p) => creditOver('en', p, `the ${p.rate}% VAT rate`),
    (p) => creditOver('pt', p, `à taxa de IVA de ${percentPt(p.rate)}`),
  ),
  'credit-note-invalid': entry(
    { refund: z.union([S, N]), fields: S, problems: S },
    (p) => `the credit note for refund ${p.refund} would be refused: ${p.problems}`,
    (p) => `O serviço recusaria a nota de crédito do reembolso ${p.refund}; campos com problemas: ${fieldsPt(p.fields)}.`,
  ),

  // Waybills
  'waybill-no-load-address': entry(
    {},
    () => 'no waybill.loadAddress in the mapping settings: the waybill needs the place the goods leave from',
    () => 'Falta waybill.loadAddress nas definições de mapeamento: a guia de transporte precisa do local de onde os bens saem.',
  ),
  'waybill-no-goods': entry(
    {},
    () => 'no goods to transport (every line is a service)',
    () => 'Não há bens a transportar (todas as linhas são serviços).',
  ),
  'waybill-billing-address': entry(
    {},
    () => 'No shipping address: the waybill goes to the billing address',
    () => 'Sem morada de envio: a guia de transporte segue para a morada de faturação.',
  ),
  'waybill-no-address': entry(
    {},
    () => 'the order has no address to send the goods to',
    () => 'A encomenda não tem morada para onde enviar os bens.',
  ),
  'waybill-postcode-not-portuguese': entry(
    { postcode: S },
    (p) => `destination post code "${p.postcode}" is not a Portuguese post code (0000-000)`,
    (p) => `O código postal de destino "${p.postcode}" não é um código postal português (0000-000).`,
  ),
  'waybill-no-postcode': entry(
    {},
    () => 'the destination address has no post code',
    () => 'A morada de destino não tem código postal.',
  ),
  'waybill-invalid': entry(
    { fields: S, problems: S },
    (p) => `the waybill would be refused: ${p.problems}`,
    (p) => `O serviço recusaria a guia de transporte; campos com problemas: ${fieldsPt(p.fields)}.`,
  ),

  // Notes the connector adds to the mapping's (ECB rates, VIES, the shop's rounding)
  'ecb-rate-missing': entry(
    { currency: S },
    (p) => `The ECB publishes no reference rate for ${p.currency} on or before the sale's day: the static euroRates.${p.currency} is used`,
    (p) => `O BCE não publica taxa de referência para ${p.currency} no dia da venda nem antes: é usada a taxa fixa euroRates.${p.currency}.`,
  ),
  'ecb-rates-unreadable': entry(
    { currency: S, error: S },
    (p) => `The ECB reference rates could not be read (${p.error}): the static euroRates.${p.currency} is used`,
    (p) => `Não foi possível ler as taxas de referência do BCE: é usada a taxa fixa euroRates.${p.currency}.`,
  ),
  'vies-unavailable-format-only': entry(
    { vat: S, why: S },
    (p) => `The EU VAT registry (VIES) could not confirm VAT number ${p.vat} (${p.why}): issued on its format alone (vies.whenUnavailable: format-check)`,
    (p) => `O registo europeu de IVA (VIES) não conseguiu confirmar o número de IVA ${p.vat}: emitido só pelo formato do número (vies.whenUnavailable: "format-check").`,
  ),
  'shop-rounds-at-subtotal': entry(
    { difference: S, currency: OPT, shop: OPT },
    (p) =>
      `The shop already rounds tax at subtotal level; this total still differs by ${p.difference} because ${SHOP_NAMED.en.subject(p.shop)} rounds a rate's item tax and shipping tax apart (or keeps unrounded nets of tax-inclusive prices)`,
    (p) =>
      `A loja já arredonda o imposto ao nível do subtotal; este total ainda difere em ${money(p.difference, p.currency)} porque ${SHOP_NAMED.pt.subject(p.shop)} arredonda à parte o imposto dos artigos e o dos portes de cada taxa (ou guarda valores sem IVA não arredondados de preços com IVA incluído).`,
  ),
  'shop-rounds-per-line': entry(
    { shop: OPT },
    (p) =>
      settingOf(p.shop, 'roundAtSubtotalShort')?.en ??
      `The shop rounds tax per line and ${SHOP_NAMED.en.subject(p.shop)} has no setting to round it per rate as the invoice does: such a cent stays (roundingLine, an accountant's choice, closes it with a 0% line)`,
    (p) =>
      settingOf(p.shop, 'roundAtSubtotalShort')?.pt ??
      `A loja arredonda o imposto por linha e ${SHOP_NAMED.pt.subject(p.shop)} não tem uma opção para o arredondar por taxa, como a fatura: esse cêntimo fica (o roundingLine, uma escolha do contabilista, fecha-o com uma linha a 0 %).`,
  ),

  // Fallbacks
  /** A stored message whose code (or params) this version does not know: never shown raw. */
  'unknown-message': entry(
    { code: S },
    (p) => `A message of code "${p.code}", written by another version, cannot be shown by this one`,
    (p) => `Uma mensagem com o código "${p.code}", escrita por outra versão, não pode ser mostrada por esta.`,
  ),
};

export type MappingCode = keyof typeof CATALOGUE;

/** The params of one code. */
export type MappingParams<C extends MappingCode> = Parameters<(typeof CATALOGUE)[C]['en']>[0];

/** One message: a code and its params; `mappingText` words it. */
export type MappingMessage = { [C in MappingCode]: { code: C; params: MappingParams<C> } }[MappingCode];

export const MAPPING_CODES = Object.keys(CATALOGUE) as MappingCode[];

function entryOf(code: MappingCode): Entry<Params> {
  return CATALOGUE[code] as unknown as Entry<Params>;
}

export function isMappingCode(code: string): code is MappingCode {
  return Object.prototype.hasOwnProperty.call(CATALOGUE, code);
}

/** `{ currency }` for an amount in another currency than the euro (the Portuguese text then names it), else nothing. */
export function currencyParam(currency: string | undefined): { currency?: string } {
  return currency && currency.toUpperCase() !== 'EUR' ? { currency: currency.toUpperCase() } : {};
}

/** The message with a code; typed params. */
export function mappingMessage<C extends MappingCode>(code: C, params: MappingParams<C>): MappingMessage {
  return { code, params } as MappingMessage;
}

/** The codes whose words name the platform the sale came from (their `shop` param). */
const PLATFORM_NAMED: ReadonlySet<MappingCode> = new Set<MappingCode>([
  'credit-over-line',
  'credit-over-rate',
  'coupons-as-line-discounts',
  'unknown-negative-fee',
  'negative-fee-spread',
  'shipping-rate-differs',
  'rounding-net-moved',
  'total-unreachable',
  'shop-rounds-at-subtotal',
  'shop-rounds-per-line',
]);

/**
 * The message naming the sale's platform (`title`: `Sale.platformTitle`) where its words send a
 * person to the platform; any other message, or a sale that names no platform, as it is. The law
 * stamps it where it hands its notes and holds out, so no rule has to carry the platform along.
 */
export function namingPlatform<M extends MappingMessage>(message: M, title: string | undefined): M {
  if (title === undefined || !PLATFORM_NAMED.has(message.code) || 'shop' in message.params) return message;
  return { ...message, params: { ...message.params, shop: title } };
}

/** The library's historical English for the message (no full stop added): what `.message` and `holdReasons` carry. */
export function englishClause(message: MappingMessage): string {
  return entryOf(message.code).en(message.params as Params);
}

/** A text as a sentence: capital first letter, ending with a full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

/** The message as a complete sentence in `lang`. */
export function mappingText(lang: Lang, message: MappingMessage): string {
  const entry = entryOf(message.code);
  return sentence(entry[lang](message.params as Params));
}

const StoredSchema = z.object({
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional().default({}),
});

/**
 * A message read back from JSON (Redis). A code this version does not know, or params that do not
 * fit its code (a message stored by another version), read as `unknown-message` naming the code:
 * worded in the reader's language, never an English text on a Portuguese page, never a throw.
 */
export const MappingMessageSchema: z.ZodType<MappingMessage, unknown> = z.unknown().transform((input): MappingMessage => {
  const stored = StoredSchema.safeParse(input);
  if (!stored.success) return { code: 'unknown-message', params: { code: '?' } };
  const { code, params } = stored.data;
  if (!isMappingCode(code)) return { code: 'unknown-message', params: { code } };
  const checked = entryOf(code).params.safeParse(params);
  if (!checked.success) return { code: 'unknown-message', params: { code } };
  return { code, params: checked.data } as MappingMessage;
});
