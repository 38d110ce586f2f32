import type { SaleAddress, SaleRefund } from '../../../law/sale';

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

/** A refund of one of two mugs (line 13001 at 23 %), in the neutral refund's words, with what a test changes. */
export const refund = (over: Partial<SaleRefund> = {}): SaleRefund => ({
  id: '977001',
  saleId: '5500001123456789012',
  created: '2026-11-20T15:00:00Z',
  amount: '12.00',
  reason: 'Partida',
  lines: [{ id: 'r1', kind: 'product', name: 'Caneca de grés', sku: 'CAN-01', saleLineId: '13001', quantity: 1, total: '9.76', taxes: [{ rateId: 'PT-23', amount: '2.24' }], attributes: [] }],
  ...over,
});
