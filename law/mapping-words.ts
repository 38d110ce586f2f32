import { z } from 'zod';
import { catalogue, fixed, words } from '../messages/catalogue';
import { domesticGoodsCodes, exemptionCodeInfo } from './exemption-codes';

/**
 * The pieces the mapping's messages share, per language: amounts, percentages, dates, regions,
 * places outside the EU VAT territory and the reason a 0% line has. English keeps the library's
 * historical forms (plain "1660.50", "23%"); Portuguese writes "1 660,50 €", "23 %", "10/03/2026".
 */

export type { Lang } from '../messages/lang';
import type { Lang } from '../messages/lang';

/** "1660.50" as "1 660,50 €" (another currency by its code: "1 660,50 USD"). */
export function moneyPt(amount: string | number, currency = 'EUR'): string {
  const text = String(amount);
  const negative = text.startsWith('-');
  const [whole, cents = ''] = text.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const symbol = currency.toUpperCase() === 'EUR' || currency === '' ? '€' : currency.toUpperCase();
  return `${negative ? '-' : ''}${grouped},${cents.padEnd(2, '0')} ${symbol}`;
}

/** "7.5" as "7,5 %". */
export function percentPt(rate: string | number): string {
  return `${String(rate).replace('.', ',')} %`;
}

/** "2026-03-10" as "10/03/2026"; anything else as it is. */
export function datePt(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : day;
}

/** What a total is compared with: the order's total, that total less donations, or a refund's amount. */
export type TotalKind = 'order' | 'order-less-donations' | 'refund';

/** "the order total 40.00": what the library's English says of the total a document must reach. */
export function totalLabelEn(kind: string, total: string): string {
  if (kind === 'refund') return `the refund amount ${total}`;
  if (kind === 'order-less-donations') return `the order total less donations and before gift cards ${total}`;
  return `the order total ${total}`;
}

/** The same in Portuguese, without its article (every one is masculine: "ao", "do" + this). */
export function totalNamePt(kind: string): string {
  if (kind === 'refund') return 'valor do reembolso';
  if (kind === 'order-less-donations') return 'total da encomenda sem os donativos e antes dos cartões-oferta';
  return 'total da encomenda';
}

const REGIONS: Record<string, { en: string; de: string; name: string }> = {
  mainland: { en: 'mainland Portugal', de: 'do continente', name: 'o continente' },
  azores: { en: 'the Azores', de: 'dos Açores', name: 'os Açores' },
  madeira: { en: 'Madeira', de: 'da Madeira', name: 'a Madeira' },
};

/** A region's name in each language: English has one form, Portuguese one after "de" and one as a name. */
const REGION_NAME: Record<Lang, (names: { en: string; de: string; name: string }, form: 'de' | 'name') => string> = {
  en: (names) => names.en,
  pt: (names, form) => names[form],
};

/**
 * A region's name: "the Azores"; in Portuguese either after "de" ("dos Açores": "o IVA dos Açores",
 * "a partir dos Açores") or as a name ("os Açores").
 */
export function regionWords(lang: Lang, region: string, form: 'de' | 'name' = 'de'): string {
  const names = REGIONS[region];
  if (!names) return region;
  return REGION_NAME[lang](names, form);
}

/** Region ids joined with `/` (as the params carry them) as names joined by `joiner`. */
export function regionList(lang: Lang, regions: string, joiner: string, form: 'de' | 'name' = 'de'): string {
  return regions
    .split('/')
    .filter(Boolean)
    .map((region) => regionWords(lang, region, form))
    .join(joiner);
}

/** A region's rates ("23/13/6", empty when none is known that day). */
export function rateListWords(lang: Lang, rates: string): string {
  return rates === '' ? RATE_WORDS.say(lang, 'none') : RATE_WORDS.say(lang, 'rates', { rates });
}

const RATE_WORDS = catalogue({
  none: fixed({ pt: 'sem taxa conhecida nesse dia', en: 'no rate known for that day' }),
  rates: words({ rates: z.string() }, { pt: (p) => `${p.rates.replace(/\./g, ',')} %`, en: (p) => `${p.rates} %` }),
});

/** Places of member states outside the EU VAT territory, by key (countries.ts holds their postcodes). */
export const OUTSIDE_PLACES: Readonly<Record<string, { en: string; pt: string; ptPlural: boolean }>> = {
  'canary-islands': { en: 'the Canary Islands (35xxx Las Palmas, 38xxx Santa Cruz de Tenerife)', pt: 'as Canárias (35xxx Las Palmas, 38xxx Santa Cruz de Tenerife)', ptPlural: true },
  ceuta: { en: 'Ceuta (51xxx)', pt: 'Ceuta (51xxx)', ptPlural: false },
  melilla: { en: 'Melilla (52xxx)', pt: 'Melilha (52xxx)', ptPlural: false },
  aland: { en: 'the Åland Islands (22xxx)', pt: 'as ilhas Åland (22xxx)', ptPlural: true },
  'mount-athos': { en: 'Mount Athos (630 86 Karyes)', pt: 'o Monte Atos (630 86 Karyes)', ptPlural: false },
  busingen: { en: 'Büsingen am Hochrhein (78266)', pt: 'Büsingen am Hochrhein (78266)', ptPlural: false },
  heligoland: { en: 'Heligoland (27498)', pt: 'Heligolândia (27498)', ptPlural: false },
  livigno: { en: 'Livigno (23041)', pt: 'Livigno (23041)', ptPlural: false },
  campione: { en: "Campione d'Italia (22061)", pt: "Campione d'Italia (22061)", ptPlural: false },
  'french-overseas': { en: 'a French overseas department (971-976)', pt: 'um departamento ultramarino francês (971-976)', ptPlural: false },
};

/** Why a place is (or is not) in the EU VAT territory, per case. */
const PLACE_WHY = catalogue({
  aland: fixed({ pt: 'as ilhas Åland estão fora do território do IVA da UE', en: 'the Åland Islands are outside the EU VAT territory' }),
  'northern-ireland': fixed({
    pt: 'a Irlanda do Norte segue as regras do IVA da UE para os bens (Quadro de Windsor)',
    en: 'Northern Ireland follows the EU VAT rules for goods (Windsor Framework)',
  }),
  outside: words(
    { place: z.string() },
    {
      pt: (p) => `${OUTSIDE_PLACES[p.place]?.pt ?? p.place} ${OUTSIDE_PLACES[p.place]?.ptPlural ? 'estão' : 'está'} fora do território do IVA da UE`,
      en: (p) => `${OUTSIDE_PLACES[p.place]?.en ?? p.place} is outside the EU VAT territory`,
    },
  ),
  'part-of': words(
    { place: z.string(), placeCode: z.string() },
    { pt: (p) => `${p.placeCode} faz parte do território do IVA de ${p.place}`, en: (p) => `${p.placeCode} is part of the ${p.place} VAT territory` },
  ),
});

/** Why a place is (or is not) in the EU VAT territory: params placeWhy, place, placeCode. */
export function placeWhyWords(lang: Lang, p: { placeWhy: string; place: string; placeCode: string }): string {
  switch (p.placeWhy) {
    case 'aland':
    case 'northern-ireland':
      return PLACE_WHY.say(lang, p.placeWhy);
    case 'outside':
      return PLACE_WHY.say(lang, 'outside', { place: p.place });
    case 'part-of':
      return PLACE_WHY.say(lang, 'part-of', { place: p.place, placeCode: p.placeCode });
    default:
      return '';
  }
}

/** The params of the reason a 0% line has (or lacks): `why` and what it needs. */
export interface ExemptionReasonParams {
  why: string;
  country: string;
  vat: string;
  regime: string;
  placeWhy: string;
  place: string;
  placeCode: string;
}

const basis = (code: string): string => exemptionCodeInfo(code)?.basis ?? '';
const mention = (code: string): string => exemptionCodeInfo(code)?.mention ?? '';

/** The settings that can cover goods staying in Portugal (issue 26.7), for the refusals. */
const DOMESTIC_EN = `exemptions.byProduct, or exemptions.byFee for a fee: ${domesticGoodsCodes('goods').join(', ')}; ${domesticGoodsCodes('reverse-charge').join(', ')} for a Portuguese business buyer`;
const DOMESTIC_PT = `exemptions.byProduct, ou exemptions.byFee para uma taxa: ${domesticGoodsCodes('goods').join(', ')}; ${domesticGoodsCodes('reverse-charge').join(', ')} para uma empresa portuguesa`;

const REASON = { why: z.string(), country: z.string(), vat: z.string(), regime: z.string(), placeWhy: z.string(), place: z.string(), placeCode: z.string() };

/** Where the goods go, as the reasons of goods say it (the place in brackets when the law named why). */
const goods = {
  en: (p: ExemptionReasonParams): string => (p.why.startsWith('goods-pt') ? 'goods that stay in Portugal' : `goods to a consumer in ${p.country}`),
  pt: (p: ExemptionReasonParams): string => (p.why.startsWith('goods-pt') ? 'os bens que ficam em Portugal' : `os bens vendidos a um consumidor em ${p.country}`),
};
const placeOf = (lang: Lang, p: ExemptionReasonParams): string => (p.placeWhy ? ` (${placeWhyWords(lang, p)})` : '');

/** The reason of a 0% line (or why none applies), by the law's `why`: the library's English kept word for word. */
const EXEMPTION_REASONS = catalogue({
  export: words(REASON, {
    en: (p) => `export of goods to ${p.country}${placeOf('en', p)} (CIVA art. 14)`,
    pt: (p) => `exportação de bens para ${p.country}${placeOf('pt', p)} (art. 14.º do CIVA)`,
  }),
  'intra-eu': words(REASON, {
    en: (p) => `intra-EU supply of goods to VAT number ${p.vat} in ${p.country}${placeOf('en', p)} (RITI art. 14)`,
    pt: (p) => `transmissão intracomunitária de bens para o número de IVA ${p.vat} em ${p.country}${placeOf('pt', p)} (art. 14.º do RITI)`,
  }),
  'goods-pt-regime': words(REASON, {
    en: (p) => `${goods.en(p)}: shop-wide regime ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `${goods.pt(p)} seguem o regime ${p.regime} da loja (${mention(p.regime)})`,
  }),
  'goods-eu-regime': words(REASON, {
    en: (p) => `${goods.en(p)}: shop-wide regime ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `${goods.pt(p)} seguem o regime ${p.regime} da loja (${mention(p.regime)})`,
  }),
  'goods-pt-taxed': words(REASON, {
    en: (p) =>
      `${goods.en(p)} are taxed (CIVA art. 6(1)); a per-product code does not cover them unless its basis is a domestic regime (${DOMESTIC_EN}), or the shop is in a regime (exemptions.regime)`,
    pt: (p) =>
      `${goods.pt(p)} são tributados (art. 6.º, n.º 1, do CIVA); um código por produto só os abrange quando assenta num regime nacional (${DOMESTIC_PT}), ou se a loja estiver num regime (exemptions.regime)`,
  }),
  'goods-pt-code-blocked': words(REASON, {
    en: (p) =>
      `${goods.en(p)} are taxed (CIVA art. 6(1)); a per-product code does not cover them unless its basis is a domestic regime: ${p.regime} (${basis(p.regime)}) on ordinary goods would hide a taxable sale (${DOMESTIC_EN}; or exemptions.regime)`,
    pt: (p) =>
      `${goods.pt(p)} são tributados (art. 6.º, n.º 1, do CIVA); um código por produto só os abrange quando assenta num regime nacional: o ${p.regime} (${mention(p.regime)}) em bens comuns esconderia uma venda tributada (${DOMESTIC_PT}; ou exemptions.regime)`,
  }),
  'goods-pt-reverse-charge-consumer': words(REASON, {
    en: (p) =>
      `${goods.en(p)} under ${p.regime} (${basis(p.regime)}) are reverse-charged only by a Portuguese business buyer (a company's Portuguese NIF), and this buyer is not one: the goods are taxed (CIVA art. 2(1), 6(1))`,
    pt: (p) =>
      `${goods.pt(p)} com o ${p.regime} (${mention(p.regime)}) só são autoliquidados por um adquirente que seja uma empresa portuguesa (o NIF português de uma empresa), e este comprador não o é: os bens são tributados (art. 2.º, n.º 1, e art. 6.º, n.º 1, do CIVA)`,
  }),
  'goods-pt-domestic': words(REASON, {
    en: (p) => `${goods.en(p)}, under the domestic regime configured for them: ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `${goods.pt(p)}, no regime nacional configurado para eles: ${p.regime} (${mention(p.regime)})`,
  }),
  'goods-pt-reverse-charge': words(REASON, {
    en: (p) => `${goods.en(p)}, to a Portuguese business that accounts for the VAT: ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `${goods.pt(p)}, vendidos a uma empresa portuguesa que autoliquida o IVA: ${p.regime} (${mention(p.regime)})`,
  }),
  'goods-eu-taxed': words(REASON, {
    en: (p) => `${goods.en(p)} are taxed (CIVA art. 6(1)); a per-product code does not cover them, only a shop-wide regime (exemptions.regime)`,
    pt: (p) => `${goods.pt(p)} são tributados (art. 6.º, n.º 1, do CIVA); um código por produto não os abrange, só um regime de toda a loja (exemptions.regime)`,
  }),
  'service-reverse-charge': words(REASON, {
    en: (p) => `service to a business established in ${p.country}: reverse charge (CIVA art. 6(6)(a))`,
    pt: (p) => `serviço a uma empresa estabelecida em ${p.country}: autoliquidação pelo adquirente (art. 6.º, n.º 6, alínea a), do CIVA)`,
  }),
  'service-where-performed': words(REASON, {
    en: () => 'a service taxed where it is performed even for a business (CIVA art. 6(7): an event in Portugal, immovable property in Portugal; services.taxedWherePerformed): it never carries 0 %',
    pt: () => 'um serviço tributado onde é prestado, mesmo a uma empresa (art. 6.º, n.º 7, do CIVA: um evento em Portugal, um imóvel em Portugal; services.taxedWherePerformed): nunca leva 0 %',
  }),
  'service-m44-in-pt': words(REASON, {
    en: () => 'M44 (art. 6(7) and following: a service placed outside Portugal) is configured for it, but the buyer is in Portugal',
    pt: () => 'o produto tem o código M44 (art. 6.º, n.º 7 e seguintes, do CIVA: serviço localizado fora de Portugal), mas o comprador está em Portugal',
  }),
  'service-configured': words(REASON, {
    en: (p) => `configured for this product: ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `código configurado para este produto: ${p.regime} (${mention(p.regime)})`,
  }),
  'service-regime': words(REASON, {
    en: (p) => `shop-wide regime ${p.regime} (${basis(p.regime)})`,
    pt: (p) => `regime ${p.regime} da loja (${mention(p.regime)})`,
  }),
  /** Any other `why`: a service with no code for it. */
  'service-uncovered': words(REASON, {
    en: () => 'a service to a consumer or a Portuguese business, with no code configured for it (exemptions.byProduct)',
    pt: () => 'serviço a um consumidor ou a uma empresa portuguesa, sem código configurado para ele (exemptions.byProduct)',
  }),
});

type ReasonCode = keyof typeof EXEMPTION_REASONS.entries & string;
const isReasonCode = (why: string): why is ReasonCode => Object.prototype.hasOwnProperty.call(EXEMPTION_REASONS.entries, why);

/** The reason of a 0% line in words (the library's English kept word for word). */
export function exemptionReasonWords(lang: Lang, p: ExemptionReasonParams): string {
  return EXEMPTION_REASONS.say(lang, isReasonCode(p.why) ? p.why : 'service-uncovered', p);
}
