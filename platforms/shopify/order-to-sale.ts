import { add, compare, divide, formatDecimal, isZero, multiply, parseDecimal, round, subtract, sum, type Decimal } from '../../client/money';
import type { Sale, SaleAddress, SaleAttribute, SaleDiscount, SaleLine, SaleLineTax, SalePayment, SaleTaxRate } from '../../law/sale';
import type { MoneyBag, ShopifyAddress, ShopifyLineItem, ShopifyOrder, ShopifyTaxLine } from './order-query';
import { legacyIdOf } from './order-query';
import type { ShopifySaleSettings } from '../../connector/config/shopify-tenant';
import { shopifyWord } from './shopify-words';
import { buyerTaxNumbers, describeNifSource } from './buyer-nif';
import { merchantNoteOf, NOTE_LOG_KEY } from './order-note';
import { metaKeyOfMetafield } from './order-summary';

/**
 * A Shopify order, as the buyer paid it, in the law's words (law/sale.ts). Each rule here is written
 * out in docs/shopify.md ("From a Shopify order to an invoice"):
 * - the order as paid: `quantity` and `originalTotalSet` of each line, never `currentQuantity` or the
 *   `current*` totals (they already take off later edits and refunds, which become credit notes);
 * - the buyer's tax numbers from the tenant's NIF sources (./buyer-nif.ts);
 * - one side of Shopify's MoneyBags, chosen by the tenant's currency policy (shop or presentment);
 * - `taxesIncluded`: Shopify's prices then hold the tax; a line's amount without tax is its price
 *   after discounts less the tax lines Shopify charged on it;
 * - every tax line as Shopify charged it (title, rate, amount), never recomputed from a rate;
 * - discount allocations taken off the line they were allocated to (and off shipping);
 * - shipping lines as lines of kind shipping, after their own discounts;
 * - duties charged at checkout as a fee line: duties are part of the taxable amount (CIVA art. 16(5)(a));
 * - a tip as a fee line of nature `donation`: a voluntary tip is no consideration for a supply, so
 *   the law leaves it out of the invoice and holds the order for a person, like a donation;
 * - a gift card sold is a line of nature `voucher` (multi-purpose: no VAT when sold, art. 7(14));
 *   a gift card spent is a payment (a transaction), never a discount;
 * - cash rounding at a POS counter changes what was received, not what was sold: the invoice
 *   carries the order's total, the rounding is kept as an attribute.
 */

export type Side = 'shopMoney' | 'presentmentMoney';

const COD_GATEWAY = /cash on delivery|\bcod\b|contra[- ]?reembolso|pagamento (na|contra|à) entrega/i;
const PAID_STATES = new Set(['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED']);

export function amountOf(bag: MoneyBag, side: Side): Decimal {
  return parseDecimal(bag[side].amount);
}

export function text(value: Decimal): string {
  return formatDecimal(round(value, 2), 2);
}

export interface TaxRateTable {
  rates: SaleTaxRate[];
  idOf(line: ShopifyTaxLine): string;
}

/** One rate per distinct title and percentage, in the order they first appear. */
export function taxRateTable(taxLines: readonly ShopifyTaxLine[]): TaxRateTable {
  const rates = new Map<string, SaleTaxRate>();
  const idOf = (line: ShopifyTaxLine): string => {
    const percent = percentOf(line);
    return `${line.title.trim().toLowerCase().replace(/\s+/g, '-')}-${percent ?? 'unknown'}`;
  };
  for (const line of taxLines) {
    const id = idOf(line);
    if (!rates.has(id)) rates.set(id, { id, label: line.title, percent: percentOf(line), code: '', compound: false });
  }
  return { rates: [...rates.values()], idOf };
}

function percentOf(line: ShopifyTaxLine): number | undefined {
  if (line.ratePercentage !== null) return Math.round(line.ratePercentage * 10_000) / 10_000;
  if (line.rate !== null) return Math.round(line.rate * 100 * 10_000) / 10_000;
  return undefined;
}

function saleTaxes(lines: readonly ShopifyTaxLine[], side: Side, table: TaxRateTable): SaleLineTax[] {
  return lines.map((line) => ({ rateId: table.idOf(line), amount: text(amountOf(line.priceSet, side)) }));
}

function taxTotal(lines: readonly ShopifyTaxLine[], side: Side): Decimal {
  return sum(lines.map((line) => amountOf(line.priceSet, side)));
}

/**
 * A line's amounts without tax. `price` is Shopify's amount before discounts (with tax when taxes
 * are included), `discount` what was allocated to it, `tax` what Shopify charged on it.
 * With taxes included the discount's share of tax is not in the order; the amount before discounts
 * without tax is derived in proportion (display only: the total after discounts is exact).
 */
export function amountsWithoutTax(price: Decimal, discount: Decimal, tax: Decimal, taxesIncluded: boolean): { subtotal: Decimal; total: Decimal } {
  if (!taxesIncluded) return { subtotal: price, total: subtract(price, discount) };
  const paid = subtract(price, discount);
  const total = subtract(paid, tax);
  if (isZero(discount)) return { subtotal: total, total };
  const discountWithoutTax = isZero(paid) || isZero(total) ? discount : divide(multiply(discount, total), paid, 2);
  return { subtotal: add(total, discountWithoutTax), total };
}

function address(source: ShopifyAddress, email: string, phone: string): SaleAddress {
  return {
    firstName: source?.firstName ?? '',
    lastName: source?.lastName ?? '',
    company: source?.company ?? '',
    line1: source?.address1 ?? '',
    line2: source?.address2 ?? '',
    city: source?.city ?? '',
    region: source?.provinceCode ?? source?.province ?? '',
    postcode: source?.zip ?? '',
    country: (source?.countryCodeV2 ?? '').toUpperCase(),
    email,
    phone: source?.phone ?? phone,
  };
}

function productLine(item: ShopifyLineItem, side: Side, taxesIncluded: boolean, table: TaxRateTable): SaleLine {
  const discount = sum(item.discountAllocations.map((a) => amountOf(a.allocatedAmountSet, side)));
  const tax = taxTotal(item.taxLines, side);
  const { subtotal, total } = amountsWithoutTax(amountOf(item.originalTotalSet, side), discount, tax, taxesIncluded);
  return {
    id: legacyIdOf(item.id),
    kind: 'product',
    name: item.name,
    sku: item.sku ?? '',
    productId: item.product ? legacyIdOf(item.product.id) : undefined,
    variantId: item.variant ? legacyIdOf(item.variant.id) : undefined,
    quantity: item.quantity,
    subtotal: text(subtotal),
    total: text(total),
    taxes: saleTaxes(item.taxLines, side, table),
    taxClass: '',
    nature: item.isGiftCard ? 'voucher' : item.requiresShipping ? 'goods' : undefined,
    attributes: item.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' })),
  };
}

function dutyLines(item: ShopifyLineItem, side: Side, taxesIncluded: boolean, table: TaxRateTable): SaleLine[] {
  return item.duties.map((duty) => {
    const tax = taxTotal(duty.taxLines, side);
    const { total } = amountsWithoutTax(amountOf(duty.price, side), parseDecimal('0'), tax, taxesIncluded);
    return {
      id: `duty-${legacyIdOf(duty.id)}`,
      kind: 'fee',
      name: `${shopifyWord('duties')}: ${item.name}`,
      sku: '',
      quantity: 1,
      subtotal: text(total),
      total: text(total),
      taxes: saleTaxes(duty.taxLines, side, table),
      taxClass: '',
      attributes: [{ key: 'shopify:duty-of-line', value: legacyIdOf(item.id) }],
    };
  });
}

function payment(order: ShopifyOrder): SalePayment {
  const captured = order.transactions.filter((t) => (t.kind === 'SALE' || t.kind === 'CAPTURE') && t.status === 'SUCCESS');
  const main = captured.find((t) => t.gateway !== 'gift_card') ?? captured[0];
  const state: SalePayment['state'] =
    order.cancelledAt !== null || order.displayFinancialStatus === 'VOIDED' ? 'cancelled' : order.test ? 'unpaid' : PAID_STATES.has(order.displayFinancialStatus ?? '') ? 'paid' : 'unpaid';
  const gateway = main?.gateway ?? order.paymentGatewayNames[0] ?? '';
  return {
    state,
    method: gateway,
    title: main?.formattedGateway ?? gateway,
    onDelivery: order.paymentGatewayNames.some((name) => COD_GATEWAY.test(name)),
  };
}

/** Shopify's status in words a person recognises from the Shopify admin ("paid", "refunded", "cancelled", "test"). */
function statusOf(order: ShopifyOrder): string {
  if (order.cancelledAt !== null) return 'cancelled';
  if (order.test) return 'test';
  return (order.displayFinancialStatus ?? 'pending').toLowerCase();
}

function paidAt(order: ShopifyOrder): string | undefined {
  const captured = order.transactions.filter((t) => (t.kind === 'SALE' || t.kind === 'CAPTURE') && t.status === 'SUCCESS' && t.processedAt);
  const last = captured.map((t) => t.processedAt as string).sort().pop();
  if (last) return last;
  return PAID_STATES.has(order.displayFinancialStatus ?? '') ? order.processedAt : undefined;
}

/**
 * The order's discounts by Shopify discount application (code, automatic or manual), without tax
 * and their tax apart, for the document's summary. Each allocation's tax share follows the tax its
 * line was charged over what was paid for it; the lines' own amounts stay exact.
 */
function discounts(order: ShopifyOrder, side: Side): SaleDiscount[] {
  const zero = parseDecimal('0');
  const byIndex = new Map<number, { amount: Decimal; tax: Decimal }>();
  const allocate = (allocations: ShopifyLineItem['discountAllocations'], price: Decimal, tax: Decimal): void => {
    const paid = subtract(price, sum(allocations.map((a) => amountOf(a.allocatedAmountSet, side))));
    const base = order.taxesIncluded ? subtract(paid, tax) : paid;
    const ratio = isZero(base) ? zero : divide(tax, base, 12);
    for (const allocation of allocations) {
      const amount = amountOf(allocation.allocatedAmountSet, side);
      const withoutTax = order.taxesIncluded ? divide(amount, add(parseDecimal('1'), ratio), 2) : amount;
      const discountTax = order.taxesIncluded ? subtract(amount, withoutTax) : round(multiply(amount, ratio), 2);
      const entry = byIndex.get(allocation.discountApplication.index) ?? { amount: zero, tax: zero };
      byIndex.set(allocation.discountApplication.index, { amount: add(entry.amount, withoutTax), tax: add(entry.tax, discountTax) });
    }
  };
  for (const item of order.lineItems.nodes) allocate(item.discountAllocations, amountOf(item.originalTotalSet, side), taxTotal(item.taxLines, side));
  for (const line of order.shippingLines.nodes) allocate(line.discountAllocations, amountOf(line.originalPriceSet, side), taxTotal(line.taxLines, side));
  return [...byIndex.entries()].map(([index, entry]) => {
    const application = order.discountApplications.nodes.find((a) => a.index === index);
    return { code: application?.code ?? application?.title ?? `discount-${index}`, amount: text(entry.amount), tax: text(entry.tax) };
  });
}

/** Every tax line Shopify charged on the order: its items, their duties and its shipping. */
export function taxLinesOf(order: ShopifyOrder): ShopifyTaxLine[] {
  return [
    ...order.lineItems.nodes.flatMap((item) => [...item.taxLines, ...item.duties.flatMap((d) => d.taxLines)]),
    ...order.shippingLines.nodes.flatMap((line) => line.taxLines),
  ];
}

/**
 * The order's attributes as the law and the connector read them: the buyer's order attributes, then
 * this app's metafields under the connector's meta keys (its record of the documents, which the
 * worker reads back from the sale: connector/shop/order-meta.ts).
 */
export function shopifyOrderAttributes(order: Pick<ShopifyOrder, 'customAttributes' | 'metafields'>): SaleAttribute[] {
  return [
    ...order.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' })),
    ...order.metafields.nodes.filter((m) => m.key !== NOTE_LOG_KEY).map((m) => ({ key: metaKeyOfMetafield(m.key), value: m.value })),
  ];
}

export function shopifyOrderToSale(order: ShopifyOrder, settings: ShopifySaleSettings): Sale {
  const side: Side = settings.currency === 'presentment' ? 'presentmentMoney' : 'shopMoney';
  const currency = side === 'shopMoney' ? order.currencyCode : order.presentmentCurrencyCode;
  const allTaxLines = taxLinesOf(order);
  const table = taxRateTable(allTaxLines);
  const lines: SaleLine[] = [];
  for (const item of order.lineItems.nodes) {
    lines.push(productLine(item, side, order.taxesIncluded, table));
    lines.push(...dutyLines(item, side, order.taxesIncluded, table));
  }
  for (const shipping of order.shippingLines.nodes) {
    const discount = sum(shipping.discountAllocations.map((a) => amountOf(a.allocatedAmountSet, side)));
    const tax = taxTotal(shipping.taxLines, side);
    const { subtotal, total } = amountsWithoutTax(amountOf(shipping.originalPriceSet, side), discount, tax, order.taxesIncluded);
    lines.push({
      id: shipping.id ? legacyIdOf(shipping.id) : `shipping-${lines.length}`,
      kind: 'shipping',
      name: shipping.title,
      sku: shipping.code ?? '',
      quantity: 1,
      subtotal: text(subtotal),
      total: text(total),
      taxes: saleTaxes(shipping.taxLines, side, table),
      taxClass: '',
      attributes: [],
    });
  }
  const tip = amountOf(order.totalTipReceivedSet, side);
  if (compare(tip, parseDecimal('0')) > 0) {
    lines.push({ id: 'tip', kind: 'fee', name: shopifyWord('tip'), sku: '', quantity: 1, subtotal: text(tip), total: text(tip), taxes: [], taxClass: '', nature: 'donation', attributes: [] });
  }

  const email = order.email ?? '';
  const phone = order.phone ?? '';
  const billing = address(order.billingAddress, email, phone);
  const company = order.purchasingEntity?.company?.name;
  if (company && billing.company === '') billing.company = company;

  const taxNumbers = buyerTaxNumbers(order, settings.nifSources);
  // A Company field relabelled "NIF" holds a number, not a company.
  if (taxNumbers.some((n) => n.source === describeNifSource({ from: 'address-company' }))) billing.company = '';
  const attributes: SaleAttribute[] = shopifyOrderAttributes(order);
  attributes.push({ key: 'shopify:order-name', value: order.name });
  const rounding = amountOf(order.totalCashRoundingAdjustment.paymentSet, side);
  if (!isZero(rounding)) attributes.push({ key: 'shopify:cash-rounding', value: text(rounding) });
  if (side === 'presentmentMoney' && order.presentmentCurrencyCode !== order.currencyCode) {
    attributes.push({ key: 'shopify:shop-money-total', value: `${text(amountOf(order.totalPriceSet, 'shopMoney'))} ${order.currencyCode}` });
  }

  return {
    platform: 'shopify',
    platformTitle: 'Shopify',
    id: order.legacyResourceId,
    // The number people know ("#1001" in the Shopify admin) without Shopify's "#": the law writes its own.
    number: order.name.replace(/^#/, ''),
    status: statusOf(order),
    payment: payment(order),
    currency,
    pricesIncludeTax: order.taxesIncluded,
    created: order.createdAt,
    paid: paidAt(order),
    completed: order.closedAt ?? undefined,
    total: text(amountOf(order.totalPriceSet, side)),
    totalTax: text(taxTotal(allTaxLines, side)),
    billing,
    shipping: order.shippingAddress ? address(order.shippingAddress, email, phone) : undefined,
    lines,
    discounts: discounts(order, side),
    taxRates: table.rates,
    needsShipping: order.lineItems.nodes.some((item) => item.requiresShipping),
    customerNote: merchantNoteOf(order.note ?? ''),
    taxNumbers,
    attributes,
  };
}
