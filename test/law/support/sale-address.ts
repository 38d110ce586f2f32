import type { SaleAddress } from '../../../law/sale';

/** A Portuguese consumer's address in the neutral sale's words (law/sale.ts), with what a test changes. */
export const address = (over: Partial<SaleAddress> = {}): SaleAddress => ({
  firstName: 'Ana',
  lastName: 'Sousa',
  company: '',
  line1: 'Rua das Flores 12',
  line2: '',
  city: 'Porto',
  region: '',
  postcode: '4050-262',
  country: 'PT',
  email: 'ana@example.pt',
  phone: '',
  ...over,
});
