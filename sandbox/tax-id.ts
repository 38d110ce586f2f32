/** The service's tax-id rules are the shared ones (client/input-rules.ts). */
export { isValidTaxId, normaliseTaxId } from '../client/input-rules';
