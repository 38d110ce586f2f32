/**
 * The tax authority's table of VAT exemption reasons (SAF-T TaxExemptionCode: the mention a
 * document prints and its legal basis), as data. Each code's meaning was checked against the AT's
 * table as republished in 2022-2025 (the 2023 additions M19, M21, M25, M26, M30-M43; the 2025
 * additions M44-M46; M08 retired at the end of 2022). `use` says how the mapping may apply it:
 *
 * - `automatic`: the mapping decides it from the line and the buyer (M05, M16, M40);
 * - `regime`: a shop-wide regime, set once (`exemptions.regime`: M10 small-business regime, art. 53;
 *   M20 flat-rate farmers, art. 59-D);
 * - `per-product`: the accountant names the products, categories or SKUs it covers
 *   (`exemptions.byProduct`); never for goods that stay in Portugal or go to an EU consumer;
 * - `by-hand`: needs facts the shop does not have (e-TaxFree validation, another state's
 *   cross-border scheme): not issued by the mapping;
 * - `retired`: no longer in the table.
 */

export type ExemptionUse = 'automatic' | 'regime' | 'per-product' | 'by-hand' | 'retired';

export interface ExemptionCode {
  code: string;
  /** What the document says (the AT's "menção"). */
  mention: string;
  basis: string;
  use: ExemptionUse;
  /** Last day it could be used, for temporary or retired codes. */
  until?: string;
  /**
   * A per-product code whose basis is a domestic regime for goods (issue 26.7): it may cover goods
   * that stay in Portugal when the accountant names them (`goods`: any buyer; `reverse-charge`: only
   * a Portuguese business buyer, who accounts for the VAT). Per-product codes without it (an art. 9
   * exemption, M02, M04, M06, M09, M41, M42, M44) never cover goods that stay in Portugal: on
   * ordinary goods they would hide a taxable sale.
   */
  domesticGoods?: 'goods' | 'reverse-charge';
}

export const EXEMPTION_CODES: readonly ExemptionCode[] = [
  { code: 'M01', mention: 'Artigo 16.º, n.º 6 do CIVA', basis: 'CIVA art. 16(6)(a)-(d): amounts excluded from the taxable amount', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M02', mention: 'Artigo 6.º do Decreto-Lei n.º 198/90, de 19 de junho', basis: 'DL 198/90 art. 6', use: 'per-product' },
  { code: 'M04', mention: 'Isento artigo 13.º do CIVA', basis: 'CIVA art. 13: exempt imports', use: 'per-product' },
  { code: 'M05', mention: 'Isento artigo 14.º do CIVA', basis: 'CIVA art. 14: exports of goods, international transport', use: 'automatic' },
  { code: 'M06', mention: 'Isento artigo 15.º do CIVA', basis: 'CIVA art. 15: customs and tax warehouses', use: 'per-product' },
  { code: 'M07', mention: 'Isento artigo 9.º do CIVA', basis: 'CIVA art. 9: exempt domestic operations (health, education, ...)', use: 'per-product' },
  { code: 'M08', mention: 'IVA - autoliquidação', basis: 'former reverse-charge code, replaced by M30-M43', use: 'retired', until: '2022-12-31' },
  { code: 'M09', mention: 'IVA - não confere direito a dedução', basis: 'CIVA art. 62(b)', use: 'per-product' },
  { code: 'M10', mention: 'IVA - regime de isenção', basis: 'CIVA art. 53: small-business exemption regime', use: 'regime' },
  { code: 'M11', mention: 'Regime particular do tabaco', basis: 'DL 346/85', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M12', mention: 'Regime da margem de lucro - Agências de viagens', basis: 'DL 221/85', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M13', mention: 'Regime da margem de lucro - Bens em segunda mão', basis: 'DL 199/96', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M14', mention: 'Regime da margem de lucro - Objetos de arte', basis: 'DL 199/96', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M15', mention: 'Regime da margem de lucro - Objetos de coleção e antiguidades', basis: 'DL 199/96', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M16', mention: 'Isento artigo 14.º do RITI', basis: 'RITI art. 14: intra-EU supply of goods to a business with a valid VAT number', use: 'automatic' },
  { code: 'M19', mention: 'Outras isenções', basis: 'temporary exemptions set by their own law', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M20', mention: 'IVA - regime forfetário', basis: 'CIVA art. 59-D(2): flat-rate farmers', use: 'regime' },
  { code: 'M21', mention: 'IVA - não confere direito à dedução', basis: 'CIVA art. 72(4)', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M25', mention: 'Mercadorias à consignação', basis: 'CIVA art. 38(1)(a): goods on consignment', use: 'per-product', domesticGoods: 'goods' },
  { code: 'M26', mention: 'Isenção de IVA com direito à dedução no cabaz alimentar', basis: 'Lei 17/2023 (zero VAT on the food basket, 18 April 2023 to 4 January 2024)', use: 'retired', until: '2024-01-04' },
  { code: 'M30', mention: 'IVA - autoliquidação', basis: 'CIVA art. 2(1)(i): domestic reverse charge', use: 'per-product', domesticGoods: 'reverse-charge' },
  { code: 'M31', mention: 'IVA - autoliquidação', basis: 'CIVA art. 2(1)(j): domestic reverse charge (construction)', use: 'per-product', domesticGoods: 'reverse-charge' },
  { code: 'M32', mention: 'IVA - autoliquidação', basis: 'CIVA art. 2(1)(l): domestic reverse charge', use: 'per-product', domesticGoods: 'reverse-charge' },
  { code: 'M33', mention: 'IVA - autoliquidação', basis: 'CIVA art. 2(1)(m): domestic reverse charge', use: 'per-product', domesticGoods: 'reverse-charge' },
  { code: 'M34', mention: 'IVA - autoliquidação', basis: 'CIVA art. 2(1)(n): domestic reverse charge', use: 'per-product', domesticGoods: 'reverse-charge' },
  { code: 'M40', mention: 'IVA - autoliquidação', basis: 'CIVA art. 6(6)(a) a contrario: services to a business established abroad', use: 'automatic' },
  { code: 'M41', mention: 'IVA - autoliquidação', basis: 'RITI art. 8(3): triangular operations', use: 'per-product' },
  { code: 'M42', mention: 'IVA - autoliquidação', basis: 'DL 21/2007: real estate with waived exemption', use: 'per-product' },
  { code: 'M43', mention: 'IVA - autoliquidação', basis: 'DL 362/99: investment gold', use: 'per-product', domesticGoods: 'reverse-charge' },
  {
    code: 'M44',
    mention: 'IVA - regras específicas - artigo 6.º',
    basis: 'CIVA art. 6(7) and following: services placed outside Portugal by the exception rules (2025 addition)',
    use: 'per-product',
  },
  { code: 'M45', mention: 'IVA - regime transfronteiriço de isenção', basis: "CIVA art. 58-A: another member state's cross-border small-business exemption (2025 addition)", use: 'by-hand' },
  { code: 'M46', mention: 'IVA - e-TaxFree', basis: 'DL 19/2017: goods in the luggage of travellers from outside the EU (2025 addition)', use: 'by-hand' },
  { code: 'M99', mention: 'Não sujeito ou não tributado', basis: 'not subject: CIVA art. 2(2), 3(4), 3(6), 3(7), 4(5)', use: 'per-product', domesticGoods: 'goods' },
];

const BY_CODE = new Map(EXEMPTION_CODES.map((entry) => [entry.code, entry]));

export function exemptionCodeInfo(code: string): ExemptionCode | undefined {
  return BY_CODE.get(code);
}

/** Codes that may cover goods staying in Portugal, for the messages ("M01, M11, ..."). */
export function domesticGoodsCodes(kind: 'goods' | 'reverse-charge'): string[] {
  return EXEMPTION_CODES.filter((entry) => entry.domesticGoods === kind).map((entry) => entry.code);
}

/** Codes of one use, for settings validation and messages. */
export function codesOf(use: ExemptionUse): string[] {
  return EXEMPTION_CODES.filter((entry) => entry.use === use).map((entry) => entry.code);
}

/** Codes whose tax (automatic ones, M44) is not due in Portugal: such a document is never a simplified invoice (CIVA art. 40(1)). */
export const TAX_NOT_DUE_IN_PORTUGAL: ReadonlySet<string> = new Set(['M05', 'M16', 'M40', 'M44']);
