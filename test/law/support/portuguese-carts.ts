import { Cart, RefundSpec } from './woo-cart';

/**
 * The Portuguese orders of the test suite, as carts. `write-order-fixtures.ts` turns them into the
 * WooCommerce REST v3 JSON under test/fixtures/orders/ (committed, so the tests read plain files).
 */

const lisboa = { address_1: 'Rua Augusta 100', city: 'Lisboa', postcode: '1100-053', country: 'PT' };
const porto = { first_name: 'João', last_name: 'Pereira', address_1: 'Rua de Santa Catarina 312', city: 'Porto', postcode: '4000-443', country: 'PT', email: 'joao.pereira@example.pt' };
const funchal = { first_name: 'Ana', last_name: 'Gouveia', address_1: 'Avenida do Mar 15', city: 'Funchal', postcode: '9000-055', country: 'PT', email: 'ana.gouveia@example.pt' };
const pontaDelgada = { first_name: 'Rui', last_name: 'Medeiros', address_1: 'Rua do Contador 23', city: 'Ponta Delgada', postcode: '9500-050', country: 'PT', email: 'rui.medeiros@example.pt' };

const ctt = (cost: string, rate = '23') => ({ title: 'CTT Expresso', methodId: 'flat_rate', cost, rate });

export const PORTUGUESE_CARTS: Record<string, Cart> = {
  'pt-001-mainland-23-single': {
    id: 5001,
    items: [{ name: 'Caneca de cerâmica', sku: 'CAN-001', productId: 11, price: '12.90', quantity: 2, rate: '23' }],
    shipping: [ctt('3.50')],
    billing: lisboa,
  },
  'pt-002-mixed-23-13-6-incl': {
    id: 5002,
    pricesIncludeTax: true,
    items: [
      { name: 'Livro: Os Maias', sku: 'LIV-OSMAIAS', productId: 21, price: '16.60', quantity: 1, rate: '6' },
      { name: 'Azeite Virgem Extra 750ml', sku: 'AZ-750', productId: 22, price: '8.49', quantity: 3, rate: '13' },
      { name: 'Auscultadores Bluetooth', sku: 'AUD-BT', productId: 23, price: '39.99', quantity: 1, rate: '23' },
    ],
    shipping: [ctt('4.07')],
    billing: porto,
  },
  'pt-003-madeira-22-12-4': {
    id: 5003,
    pricesIncludeTax: true,
    items: [
      { name: 'Vinho Madeira 5 anos', sku: 'VM-5', productId: 31, price: '19.95', quantity: 2, rate: '22' },
      { name: 'Bolo de mel', sku: 'BM-500', productId: 32, price: '7.45', quantity: 3, rate: '12' },
      { name: 'Guia de viagem da Madeira', sku: 'GUIA-MAD', productId: 33, price: '14.99', quantity: 1, rate: '4' },
    ],
    shipping: [ctt('3.28', '22')],
    billing: funchal,
  },
  'pt-004-azores-16-9-4': {
    id: 5004,
    items: [
      { name: 'Queijo São Jorge 24 meses', sku: 'QSJ-24', productId: 41, price: '13.7615', quantity: 2, rate: '16' },
      { name: 'Chá Gorreana 100g', sku: 'CHA-G', productId: 42, price: '4.5872', quantity: 5, rate: '9' },
      { name: 'Revista Açores', sku: 'REV-AC', productId: 43, price: '3.8462', quantity: 1, rate: '4' },
    ],
    shipping: [ctt('4.31', '16')],
    billing: pontaDelgada,
  },
  'pt-005-eu-b2b-es-vat': {
    id: 5005,
    items: [
      { name: 'Cortiça natural – placa 10mm', sku: 'COR-10', productId: 51, price: '7.35', quantity: 40 },
      { name: 'Cola para cortiça 1L', sku: 'COLA-1L', productId: 52, price: '11.20', quantity: 4 },
    ],
    shipping: [{ title: 'Transportadora', cost: '25.00' }],
    billing: { first_name: 'Lucía', last_name: 'García', company: 'Construcciones García SL', address_1: 'Calle Mayor 8', city: 'Madrid', postcode: '28013', country: 'ES', email: 'compras@garcia.example.es' },
    meta: [{ key: '_billing_vat', value: 'ESB12345678' }, { key: 'is_vat_exempt', value: 'yes' }],
  },
  'pt-006-eu-b2b-de-vat-shipping': {
    id: 5006,
    items: [{ name: 'Azulejo pintado à mão 15x15', sku: 'AZU-15', productId: 61, price: '6.80', quantity: 120 }],
    shipping: [{ title: 'DHL Freight', methodId: 'flat_rate', cost: '48.00' }],
    billing: { first_name: 'Jonas', last_name: 'Becker', company: 'Becker Fliesen GmbH', address_1: 'Hauptstraße 5', city: 'Berlin', postcode: '10115', country: 'DE', email: 'einkauf@becker.example.de' },
    meta: [{ key: 'vat_number', value: 'DE 123 456 789' }],
  },
  'pt-007-export-us': {
    id: 5007,
    items: [
      { name: 'Lenço dos Namorados', sku: 'LN-01', productId: 71, price: '45.00', quantity: 2 },
      { name: 'Galo de Barcelos (grande)', sku: 'GB-G', productId: 72, price: '29.90', quantity: 1 },
    ],
    shipping: [{ title: 'CTT Internacional', cost: '18.50' }],
    billing: { first_name: 'Emily', last_name: 'Johnson', address_1: '1200 Market St', city: 'Philadelphia', state: 'PA', postcode: '19107', country: 'US', email: 'emily.johnson@example.com' },
  },
  'pt-008-export-ch': {
    id: 5008,
    items: [{ name: 'Conservas de sardinha (caixa 12)', sku: 'SARD-12', productId: 81, price: '38.40', quantity: 3 }],
    shipping: [{ title: 'CTT Internacional', cost: '22.00' }],
    billing: { first_name: 'Luca', last_name: 'Meier', address_1: 'Bahnhofstrasse 1', city: 'Zürich', postcode: '8001', country: 'CH', email: 'luca.meier@example.ch' },
  },
  'pt-009-prices-incl-tax': {
    id: 5009,
    pricesIncludeTax: true,
    items: [
      { name: 'T-shirt algodão orgânico', sku: 'TS-ORG', productId: 91, price: '9.99', quantity: 3, rate: '23' },
      { name: 'Sacola de pano', sku: 'SAC-01', productId: 92, price: '4.99', quantity: 1, rate: '23' },
    ],
    shipping: [ctt('2.84')],
    billing: lisboa,
  },
  'pt-010-many-lines-excl': {
    id: 5010,
    items: [
      { name: 'Parafuso M4', sku: 'PAR-M4', productId: 101, price: '0.07', quantity: 300, rate: '23' },
      { name: 'Porca M4', sku: 'POR-M4', productId: 102, price: '0.03', quantity: 300, rate: '23' },
      { name: 'Anilha M4', sku: 'ANI-M4', productId: 103, price: '0.02', quantity: 300, rate: '23' },
      { name: 'Berbequim 18V', sku: 'BER-18', productId: 104, price: '89.43', quantity: 1, rate: '23' },
      { name: 'Broca 6mm', sku: 'BRO-6', productId: 105, price: '2.17', quantity: 7, rate: '23' },
      { name: 'Manual de bricolage', sku: 'MAN-BRI', productId: 106, price: '12.26', quantity: 1, rate: '6' },
      { name: 'Luvas de trabalho', sku: 'LUV-01', productId: 107, price: '3.33', quantity: 3, rate: '23' },
      { name: 'Fita métrica 5m', sku: 'FIT-5', productId: 108, price: '4.87', quantity: 2, rate: '23' },
    ],
    shipping: [ctt('5.69')],
    billing: porto,
  },
  'pt-011-percent-coupon-excl': {
    id: 5011,
    items: [
      { name: 'Sapatilhas de corrida', sku: 'SAP-RUN', productId: 111, price: '64.99', quantity: 1, rate: '23' },
      { name: 'Meias desportivas (3 pares)', sku: 'MEI-3', productId: 112, price: '8.49', quantity: 2, rate: '23' },
    ],
    coupons: [{ code: 'primavera10', type: 'percent', amount: '10' }],
    shipping: [ctt('3.99')],
    billing: lisboa,
  },
  'pt-012-percent-coupon-incl-mixed': {
    id: 5012,
    pricesIncludeTax: true,
    items: [
      { name: 'Cabaz de Natal', sku: 'CAB-NAT', productId: 121, price: '49.90', quantity: 1, rate: '13' },
      { name: 'Vinho do Porto Tawny', sku: 'VP-TAW', productId: 122, price: '17.50', quantity: 2, rate: '23' },
      { name: 'Livro de receitas', sku: 'LIV-REC', productId: 123, price: '21.20', quantity: 1, rate: '6' },
    ],
    coupons: [{ code: 'natal15', type: 'percent', amount: '15' }],
    shipping: [ctt('4.88')],
    billing: porto,
  },
  'pt-013-fixed-cart-coupon': {
    id: 5013,
    items: [
      { name: 'Pão de ló de Ovar', sku: 'PLO-1', productId: 131, price: '11.50', quantity: 1, rate: '13' },
      { name: 'Caneca térmica', sku: 'CT-500', productId: 132, price: '15.40', quantity: 1, rate: '23' },
      { name: 'Revista Gastronomia', sku: 'REV-GAS', productId: 133, price: '4.70', quantity: 1, rate: '6' },
    ],
    coupons: [{ code: 'bemvindo5', type: 'fixed_cart', amount: '5.00' }],
    shipping: [ctt('3.25')],
    billing: lisboa,
  },
  'pt-014-positive-fee': {
    id: 5014,
    items: [{ name: 'Relógio de pulso', sku: 'REL-01', productId: 141, price: '129.00', quantity: 1, rate: '23' }],
    fees: [{ name: 'Embrulho para oferta', amount: '2.44', rate: '23' }],
    shipping: [ctt('0.00')],
    billing: lisboa,
  },
  'pt-015-negative-fee': {
    id: 5015,
    items: [
      { name: 'Cadeira de escritório', sku: 'CAD-ESC', productId: 151, price: '149.00', quantity: 1, rate: '23' },
      { name: 'Agenda 2025', sku: 'AGE-25', productId: 152, price: '12.00', quantity: 2, rate: '6' },
    ],
    fees: [{ name: 'Desconto cliente fiel', amount: '-10.00' }],
    shipping: [ctt('6.50')],
    billing: porto,
  },
  'pt-016-free-shipping': {
    id: 5016,
    items: [{ name: 'Colchão de espuma 150x190', sku: 'COL-150', productId: 161, price: '299.00', quantity: 1, rate: '23' }],
    shipping: [{ title: 'Envio gratuito', methodId: 'free_shipping', cost: '0.00' }],
    billing: lisboa,
  },
  'pt-017-many-quantities': {
    id: 5017,
    pricesIncludeTax: true,
    items: [
      { name: 'Garrafa de água 33cl', sku: 'AG-33', productId: 171, price: '0.37', quantity: 250, rate: '6' },
      { name: 'Copo de papel', sku: 'COPO-P', productId: 172, price: '0.09', quantity: 1000, rate: '23' },
      { name: 'Guardanapo (pack 50)', sku: 'GUA-50', productId: 173, price: '1.19', quantity: 37, rate: '23' },
    ],
    shipping: [ctt('12.20')],
    billing: { ...porto, company: 'Eventos do Norte Lda' },
    meta: [{ key: '_billing_nif', value: '508112346' }],
  },
  'pt-018-consumer-over-1000-no-nif': {
    id: 5018,
    pricesIncludeTax: true,
    items: [{ name: 'Portátil 15" 16GB', sku: 'PORT-15', productId: 181, price: '1199.00', quantity: 1, rate: '23' }],
    shipping: [{ title: 'Envio gratuito', methodId: 'free_shipping', cost: '0.00' }],
    billing: lisboa,
  },
  'pt-019-consumer-over-1000-with-nif': {
    id: 5019,
    pricesIncludeTax: true,
    items: [{ name: 'Bicicleta elétrica urbana', sku: 'BIC-E', productId: 191, price: '1490.00', quantity: 1, rate: '23' }],
    billing: porto,
    meta: [{ key: '_billing_nif', value: '234567899' }],
  },
  'pt-020-invalid-nif': {
    id: 5020,
    items: [{ name: 'Candeeiro de mesa', sku: 'CAN-MES', productId: 201, price: '34.90', quantity: 1, rate: '23' }],
    shipping: [ctt('3.50')],
    billing: lisboa,
    meta: [{ key: 'billing_nif', value: '123456780' }],
  },
  'pt-021-simplified-small': {
    id: 5021,
    pricesIncludeTax: true,
    items: [{ name: 'Postal ilustrado', sku: 'POS-01', productId: 211, price: '1.50', quantity: 6, rate: '23' }],
    shipping: [ctt('1.22')],
    billing: lisboa,
  },
  'pt-022-unpaid-bank-transfer': {
    id: 5022,
    datePaidGmt: null,
    items: [{ name: 'Estante de madeira', sku: 'EST-MAD', productId: 221, price: '89.00', quantity: 1, rate: '23' }],
    shipping: [ctt('15.00')],
    billing: { ...lisboa, company: 'Livraria Aurora Lda' },
    meta: [{ key: '_billing_nif', value: '512345678' }],
  },
  'pt-023-no-rate-percent-incl': {
    id: 5023,
    pricesIncludeTax: true,
    omitRatePercent: true,
    items: [
      { name: 'Ténis criança', sku: 'TEN-CR', productId: 231, price: '27.99', quantity: 2, rate: '23' },
      { name: 'Livro infantil', sku: 'LIV-INF', productId: 232, price: '9.95', quantity: 3, rate: '6' },
    ],
    shipping: [ctt('3.25')],
    billing: lisboa,
  },
  'pt-024-per-rate-rounding': {
    id: 5024,
    taxRounding: 'per-rate',
    pricesIncludeTax: true,
    items: [
      { name: 'Caderno A5', sku: 'CAD-A5', productId: 241, price: '2.99', quantity: 1, rate: '23' },
      { name: 'Caneta gel', sku: 'CAN-GEL', productId: 242, price: '1.49', quantity: 1, rate: '23' },
      { name: 'Marcador fluorescente', sku: 'MAR-FL', productId: 243, price: '0.99', quantity: 1, rate: '23' },
      { name: 'Borracha', sku: 'BOR-01', productId: 244, price: '0.59', quantity: 1, rate: '23' },
    ],
    billing: lisboa,
  },
  'pt-025-single-rate-unreachable-total': {
    id: 5025,
    items: [
      { name: 'Vela aromática', sku: 'VEL-01', productId: 251, price: '5.01', quantity: 1, rate: '23' },
      { name: 'Incenso', sku: 'INC-01', productId: 252, price: '5.02', quantity: 1, rate: '23' },
    ],
    billing: lisboa,
  },
  'pt-026-refund-source': {
    id: 5026,
    items: [
      { name: 'Camisa de linho', sku: 'CAM-LIN', productId: 261, price: '39.00', quantity: 2, rate: '23' },
      { name: 'Livro de bolso', sku: 'LIV-BOL', productId: 262, price: '8.50', quantity: 1, rate: '6' },
    ],
    shipping: [ctt('4.00')],
    billing: porto,
    meta: [{ key: '_billing_nif', value: '298765438' }],
  },
  'pt-027-long-names': {
    id: 5027,
    items: [
      {
        name: 'Conjunto de panelas em aço inoxidável 18/10 com fundo difusor triplo, tampas em vidro temperado e pegas ergonómicas anti-escaldão &amp; oferta de utensílios de silicone para cozinha profissional e doméstica, edição limitada de aniversário',
        sku: 'PAN-INOX-CONJUNTO-EDICAO-LIMITADA-ANIVERSARIO-2025-REF-000123456789',
        productId: 271,
        price: '189.90',
        quantity: 1,
        rate: '23',
      },
    ],
    shipping: [ctt('7.50')],
    billing: {
      first_name: 'Maria da Conceição Albuquerque',
      last_name: 'de Vasconcelos e Sá Fonseca Pinto Magalhães Teixeira',
      company: '',
      address_1: 'Avenida da República, n.º 1234, Edifício Central, Bloco B, 7.º andar, Escritório 7D',
      address_2: 'Urbanização Quinta das Flores',
      city: 'Vila Nova de Famalicão',
      postcode: '4760 123',
      country: 'PT',
      email: 'maria.conceicao@example.pt',
    },
  },
  'pt-028-variation-attributes': {
    id: 5028,
    pricesIncludeTax: true,
    items: [
      {
        name: 'Camisola de lã - Azul, M',
        sku: '',
        productId: 281,
        variationId: 2811,
        price: '34.95',
        quantity: 1,
        rate: '23',
        meta: [
          { key: 'pa_cor', value: 'azul', display_key: 'Cor', display_value: 'Azul' },
          { key: 'pa_tamanho', value: 'm', display_key: 'Tamanho', display_value: 'M' },
          { key: 'gravacao', value: 'J.P.', display_key: 'Gravação', display_value: 'J.P.' },
          { key: '_reduced_stock', value: '1' },
        ],
      },
    ],
    shipping: [ctt('3.25')],
    billing: lisboa,
  },
  'pt-029-virtual-only': {
    id: 5029,
    items: [
      { name: 'Curso online de fotografia', sku: 'CURSO-FOTO', productId: 291, price: '79.00', quantity: 1, rate: '23' },
      { name: 'E-book: Luz natural', sku: 'EBOOK-LUZ', productId: 292, price: '9.43', quantity: 1, rate: '6' },
    ],
    billing: lisboa,
  },
  'pt-030-gbp-with-euro-rate-meta': {
    id: 5030,
    currency: 'GBP',
    items: [{ name: 'Vinho Verde Alvarinho (caixa 6)', sku: 'VV-ALV-6', productId: 301, price: '54.00', quantity: 2 }],
    shipping: [{ title: 'International', cost: '19.00' }],
    billing: { first_name: 'Oliver', last_name: 'Smith', address_1: '10 Downing Lane', city: 'London', postcode: 'SW1A 2AA', country: 'GB', email: 'oliver.smith@example.co.uk' },
    meta: [{ key: '_euro_rate', value: '1.1820' }],
  },
};

/** Refunds of pt-026-refund-source (2 × Camisa 39.00 at 23%, Livro 8.50 at 6%, shipping 4.00 at 23%). */
export const REFUNDS_OF_5026: Record<string, RefundSpec> = {
  'pt-026-refund-partial-one-shirt': { id: 7001, reason: 'Tamanho errado', items: [{ index: 0, quantity: 1 }] },
  'pt-026-refund-full': { id: 7002, reason: 'Encomenda cancelada', items: [{ index: 0, quantity: 2 }, { index: 1, quantity: 1 }], shipping: true },
  'pt-026-refund-amount-only': { id: 7003, reason: 'Compensação por atraso', amount: '10.00' },
  'pt-026-refund-shipping-only': { id: 7004, reason: 'Portes devolvidos', shipping: true },
};
