/**
 * The text a document must print for each VAT exemption code: the tax authority's table of
 * exemption reasons (SAF-T TaxExemptionCode, the "menção a constar na fatura" and its legal basis).
 * Every code `TAX_EXEMPTION_CODES` accepts has its text here.
 */
export const EXEMPTION_REASONS: Readonly<Record<string, string>> = {
  M01: 'Artigo 16.º, n.º 6 do CIVA',
  M02: 'Artigo 6.º do Decreto-Lei n.º 198/90, de 19 de junho',
  M04: 'Isento artigo 13.º do CIVA',
  M05: 'Isento artigo 14.º do CIVA',
  M06: 'Isento artigo 15.º do CIVA',
  M07: 'Isento artigo 9.º do CIVA',
  M09: 'IVA - não confere direito a dedução (artigo 62.º, alínea b) do CIVA)',
  M10: 'IVA - regime de isenção (artigo 53.º do CIVA)',
  M11: 'Regime particular do tabaco (Decreto-Lei n.º 346/85)',
  M12: 'Regime da margem de lucro - Agências de viagens',
  M13: 'Regime da margem de lucro - Bens em segunda mão',
  M14: 'Regime da margem de lucro - Objetos de arte',
  M15: 'Regime da margem de lucro - Objetos de coleção e antiguidades',
  M16: 'Isento artigo 14.º do RITI',
  M19: 'Outras isenções (isenção temporária determinada em diploma próprio)',
  M20: 'IVA - regime forfetário (artigo 59.º-D do CIVA)',
  M21: 'IVA - não confere direito à dedução (artigo 72.º, n.º 4 do CIVA)',
  M25: 'Mercadorias à consignação (artigo 38.º, n.º 1, alínea a) do CIVA)',
  M26: 'Isenção de IVA com direito à dedução no cabaz alimentar (Lei n.º 17/2023)',
  M30: 'IVA - autoliquidação (artigo 2.º, n.º 1, alínea i) do CIVA)',
  M31: 'IVA - autoliquidação (artigo 2.º, n.º 1, alínea j) do CIVA)',
  M32: 'IVA - autoliquidação (artigo 2.º, n.º 1, alínea l) do CIVA)',
  M33: 'IVA - autoliquidação (artigo 2.º, n.º 1, alínea m) do CIVA)',
  M34: 'IVA - autoliquidação (artigo 2.º, n.º 1, alínea n) do CIVA)',
  M40: 'IVA - autoliquidação (artigo 6.º, n.º 6, alínea a) do CIVA, a contrário)',
  M41: 'IVA - autoliquidação (artigo 8.º, n.º 3 do RITI)',
  M42: 'IVA - autoliquidação (Decreto-Lei n.º 21/2007, de 29 de janeiro)',
  M43: 'IVA - autoliquidação (Decreto-Lei n.º 362/99, de 16 de setembro)',
  M44: 'IVA - regras específicas - artigo 6.º do CIVA',
  M45: 'IVA - regime transfronteiriço de isenção (artigo 58.º-A do CIVA)',
  M46: 'IVA - e-TaxFree (Decreto-Lei n.º 19/2017, de 14 de fevereiro)',
  M99: 'Não sujeito ou não tributado',
};

/** "M16 - Isento artigo 14.º do RITI"; an unknown code is shown as it is. */
export function exemptionText(code: string): string {
  const text = EXEMPTION_REASONS[code];
  return text === undefined ? code : `${code} - ${text}`;
}
