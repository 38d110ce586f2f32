import { divide, isZero, multiply, negate, subtract, sum, type Decimal } from '../../client/money';
import type { SaleLineTax, SaleRefund, SaleRefundLine } from '../../law/sale';
import type { ShopifyOrder, ShopifyRefund, ShopifyTaxLine } from './order-query';
import { legacyIdOf } from './order-query';
import { amountOf, taxLinesOf, taxRateTable, text, type Side, type TaxRateTable } from './order-to-sale';
import type { ShopifySaleSettings } from '../../connector/config/shopify-tenant';
import { shopifyWord } from './shopify-words';

/**
 * A Shopify refund in the law's words (law/sale.ts), on the same side of the MoneyBags as the
 * invoice (the tenant's currency policy). Rules (docs/shopify.md, "Refunds to credit notes"):
 * - each refund line item credits its line: `subtotalSet` is after the line's discounts, with tax
 *   when the order's taxes are included; `totalTaxSet` is its tax, put on the line's own rate (split
 *   over the line's rates in their charged proportion when it had more than one);
 * - each refunded shipping line credits that shipping line the same way;
 * - order adjustments (a refund discrepancy, a shipping refund of older orders) credit what they
 *   say: Shopify writes money back to the buyer as a negative adjustment, so the credit is its
 *   opposite; its tax goes on the order's rate when the order had a single one;
 * - the amount is what went back: the refund's successful REFUND transactions (a gift card refunded
 *   is money back too). The law checks the lines against it and against what was invoiced.
 */
export function shopifyRefundToSaleRefund(order: ShopifyOrder, refund: ShopifyRefund, settings: ShopifySaleSettings): SaleRefund {
  const side: Side = settings.currency === 'presentment' ? 'presentmentMoney' : 'shopMoney';
  const table = taxRateTable(taxLinesOf(order));
  const lines: SaleRefundLine[] = [];

  for (const [index, item] of refund.refundLineItems.nodes.entries()) {
    const sold = order.lineItems.nodes.find((line) => line.id === item.lineItem.id);
    const tax = amountOf(item.totalTaxSet, side);
    const subtotal = amountOf(item.subtotalSet, side);
    lines.push({
      id: `${legacyIdOf(refund.id)}-line-${index}`,
      kind: 'product',
      name: item.lineItem.name,
      sku: item.lineItem.sku ?? '',
      saleLineId: legacyIdOf(item.lineItem.id),
      productId: item.lineItem.product ? legacyIdOf(item.lineItem.product.id) : undefined,
      variantId: item.lineItem.variant ? legacyIdOf(item.lineItem.variant.id) : undefined,
      quantity: item.quantity,
      total: text(order.taxesIncluded ? subtract(subtotal, tax) : subtotal),
      taxes: spread(tax, sold?.taxLines ?? [], side, table),
      attributes: [],
    });
  }

  for (const item of refund.refundShippingLines.nodes) {
    const sold = order.shippingLines.nodes.find((line) => line.id !== null && line.id === item.shippingLine.id);
    const tax = amountOf(item.taxAmountSet, side);
    const subtotal = amountOf(item.subtotalAmountSet, side);
    lines.push({
      id: legacyIdOf(item.id),
      kind: 'shipping',
      name: item.shippingLine.title,
      sku: '',
      saleLineId: item.shippingLine.id ? legacyIdOf(item.shippingLine.id) : undefined,
      quantity: 1,
      total: text(order.taxesIncluded ? subtract(subtotal, tax) : subtotal),
      taxes: spread(tax, sold?.taxLines ?? [], side, table),
      attributes: [],
    });
  }

  const onlyRate = table.rates.length === 1 ? table.rates[0].id : undefined;
  for (const adjustment of refund.orderAdjustments.nodes) {
    const credit = negate(amountOf(adjustment.amountSet, side));
    const tax = negate(amountOf(adjustment.taxAmountSet, side));
    if (isZero(credit) && isZero(tax)) continue;
    const taxes: SaleLineTax[] = isZero(tax) ? [] : onlyRate ? [{ rateId: onlyRate, amount: text(tax) }] : [];
    lines.push({
      id: legacyIdOf(adjustment.id),
      kind: 'fee',
      name: shopifyWord('adjustment'),
      sku: '',
      quantity: 1,
      total: text(order.taxesIncluded ? subtract(credit, tax) : credit),
      taxes,
      attributes: [{ key: 'shopify:adjustment-reason', value: adjustment.reason ?? '' }, ...(taxes.length === 0 && !isZero(tax) ? [{ key: 'shopify:adjustment-tax-unplaced', value: text(tax) }] : [])],
    });
  }

  const returned = refund.transactions.nodes.filter((t) => t.kind === 'REFUND' && t.status === 'SUCCESS');
  return {
    id: legacyIdOf(refund.id),
    saleId: order.legacyResourceId,
    created: refund.createdAt ?? undefined,
    amount: text(sum(returned.map((t) => amountOf(t.amountSet, side)))),
    reason: refund.note ?? '',
    lines,
  };
}

/**
 * `tax` over the rates a line was charged, in the proportion Shopify charged them; the last takes
 * the remainder. A line charged no tax gets none (a tax on its refund is then the law's to refuse).
 */
function spread(tax: Decimal, charged: readonly ShopifyTaxLine[], side: Side, table: TaxRateTable): SaleLineTax[] {
  if (charged.length === 0) return [];
  if (charged.length === 1) return [{ rateId: table.idOf(charged[0]), amount: text(tax) }];
  const whole = sum(charged.map((line) => amountOf(line.priceSet, side)));
  let left = tax;
  return charged.map((line, index) => {
    if (index === charged.length - 1 || isZero(whole)) return { rateId: table.idOf(line), amount: text(left) };
    const part = divide(multiply(tax, amountOf(line.priceSet, side)), whole, 2);
    left = subtract(left, part);
    return { rateId: table.idOf(line), amount: text(part) };
  });
}
