import { add, divide, isZero, multiply, negate, parseDecimal, subtract, sum, type Decimal } from '../../client/money';
import type { Sale, SaleLineTax, SaleRefund, SaleRefundLine } from '../../law/sale';
import type { MoneyBag, ShopifyRefund } from './order-query';
import { legacyIdOf } from './order-query';
import { amountOf, text, type Side } from './order-to-sale';
import { shopifyWord } from './shopify-words';

/**
 * A Shopify refund in the law's words (law/sale.ts), against the sale it refunds (what the invoice
 * was made from). Rules (docs/shopify.md, "Refunds to credit notes"):
 * - the amounts are the MoneyBag side in the sale's currency (the tenant's currency policy);
 * - each refund line item credits its line: `subtotalSet` is after the line's discounts, with tax
 *   when the sale's prices include tax; `totalTaxSet` is its tax, put on the line's own rate (split
 *   over the line's rates in their charged proportion when it had more than one);
 * - each refunded shipping line credits that shipping line the same way;
 * - order adjustments (a refund discrepancy, a shipping refund of older orders): Shopify writes
 *   money back to the buyer as a negative adjustment, so the credit is its opposite; one with tax on
 *   a sale of a single rate credits that rate; any other (a goodwill amount Shopify charged no tax
 *   on) has no rate of its own: it is the refund's amount `withoutLines`, which the law credits by
 *   the accountant's `refundWithoutLines` (held by default, or across the invoice's rates);
 * - the amount is what went back: the refund's successful REFUND transactions (a gift card refunded
 *   is money back too). The law checks the lines against it and against what was invoiced.
 */
export function shopifyRefundToSaleRefund(refund: ShopifyRefund, sale: Sale): SaleRefund {
  const sides: MoneyBag = refund.totalRefundedSet;
  const side: Side = sides.shopMoney.currencyCode === sale.currency || sides.presentmentMoney.currencyCode !== sale.currency ? 'shopMoney' : 'presentmentMoney';
  const lines: SaleRefundLine[] = [];
  const withoutTax = (subtotal: Decimal, tax: Decimal): string => text(sale.pricesIncludeTax ? subtract(subtotal, tax) : subtotal);

  for (const [index, item] of refund.refundLineItems.nodes.entries()) {
    const saleLineId = legacyIdOf(item.lineItem.id);
    const tax = amountOf(item.totalTaxSet, side);
    lines.push({
      id: `${legacyIdOf(refund.id)}-line-${index}`,
      kind: 'product',
      name: item.lineItem.name,
      sku: item.lineItem.sku ?? '',
      saleLineId,
      productId: item.lineItem.product ? legacyIdOf(item.lineItem.product.id) : undefined,
      variantId: item.lineItem.variant ? legacyIdOf(item.lineItem.variant.id) : undefined,
      quantity: item.quantity,
      total: withoutTax(amountOf(item.subtotalSet, side), tax),
      taxes: spread(tax, sale.lines.find((line) => line.id === saleLineId)?.taxes ?? []),
      attributes: [],
    });
  }

  for (const item of refund.refundShippingLines.nodes) {
    const saleLineId = item.shippingLine.id ? legacyIdOf(item.shippingLine.id) : undefined;
    const tax = amountOf(item.taxAmountSet, side);
    lines.push({
      id: legacyIdOf(item.id),
      kind: 'shipping',
      name: item.shippingLine.title,
      sku: '',
      saleLineId,
      quantity: 1,
      total: withoutTax(amountOf(item.subtotalAmountSet, side), tax),
      taxes: spread(tax, sale.lines.find((line) => line.kind === 'shipping' && line.id === saleLineId)?.taxes ?? []),
      attributes: [],
    });
  }

  const onlyRate = sale.taxRates.length === 1 ? sale.taxRates[0].id : undefined;
  const apart: Decimal[] = [];
  for (const adjustment of refund.orderAdjustments.nodes) {
    const credit = negate(amountOf(adjustment.amountSet, side));
    const tax = negate(amountOf(adjustment.taxAmountSet, side));
    if (isZero(credit) && isZero(tax)) continue;
    if (isZero(tax) || !onlyRate) {
      // No tax, or tax on no one rate: an amount without a rate of its own, the law's to credit (refundWithoutLines).
      apart.push(sale.pricesIncludeTax ? credit : add(credit, tax));
      continue;
    }
    lines.push({
      id: legacyIdOf(adjustment.id),
      kind: 'fee',
      name: shopifyWord('adjustment'),
      sku: '',
      quantity: 1,
      total: withoutTax(credit, tax),
      taxes: [{ rateId: onlyRate, amount: text(tax) }],
      attributes: [{ key: 'shopify:adjustment-reason', value: adjustment.reason ?? '' }],
    });
  }

  const returned = refund.transactions.nodes.filter((t) => t.kind === 'REFUND' && t.status === 'SUCCESS');
  return {
    id: legacyIdOf(refund.id),
    saleId: sale.id,
    created: refund.createdAt ?? undefined,
    amount: text(sum(returned.map((t) => amountOf(t.amountSet, side)))),
    reason: refund.note ?? '',
    lines,
    ...(apart.length > 0 ? { withoutLines: { amount: text(sum(apart)) } } : {}),
  };
}

/**
 * `tax` over the rates its sale line was charged, in the proportion they were charged; the last
 * takes the remainder. A line charged no tax gets none (a tax on its refund is then the law's to refuse).
 */
function spread(tax: Decimal, charged: readonly SaleLineTax[]): SaleLineTax[] {
  if (charged.length === 0) return [];
  if (charged.length === 1) return [{ rateId: charged[0].rateId, amount: text(tax) }];
  const whole = sum(charged.map((line) => parseDecimal(line.amount)));
  let left = tax;
  return charged.map((line, index) => {
    if (index === charged.length - 1 || isZero(whole)) return { rateId: line.rateId, amount: text(left) };
    const part = divide(multiply(tax, parseDecimal(line.amount)), whole, 2);
    left = subtract(left, part);
    return { rateId: line.rateId, amount: text(part) };
  });
}
