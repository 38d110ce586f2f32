/**
 * Writes test/fixtures/orders/*.json from the carts (run: npx ts-node -P tsconfig.json --transpile-only
 * test/law/support/write-order-fixtures.ts). The JSON files are committed; tests read them.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PORTUGUESE_CARTS, REFUNDS_OF_5026 } from './portuguese-carts';
import { buildOrder, buildRefund, type WooCartOrder } from './woo-cart';

const dir = join(__dirname, '..', '..', 'fixtures', 'orders');
mkdirSync(join(dir, 'refunds'), { recursive: true });
const orders: Record<string, WooCartOrder> = {};
for (const [name, cart] of Object.entries(PORTUGUESE_CARTS)) {
  const order = buildOrder(name === 'pt-029-virtual-only' ? { ...cart, needsProcessing: false } : cart);
  orders[name] = order;
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(order, null, 2)}\n`);
}
for (const [name, spec] of Object.entries(REFUNDS_OF_5026)) {
  writeFileSync(join(dir, 'refunds', `${name}.json`), `${JSON.stringify(buildRefund(orders['pt-026-refund-source'], spec), null, 2)}\n`);
}
