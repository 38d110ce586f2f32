import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SHARED = join(__dirname, '..', '..', 'fixtures', 'orders', 'shared-woocommerce');
const ORDERS = join(__dirname, '..', '..', 'fixtures', 'orders');

/** One of the four shared WooCommerce payloads (verbatim copies of published examples). */
export function sharedFixture(name: string): unknown {
  return JSON.parse(readFileSync(join(SHARED, name), 'utf8'));
}

export function orderFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ORDERS, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

export function refundFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(ORDERS, 'refunds', `${name}.json`), 'utf8')) as Record<string, unknown>;
}

export function orderFixtureNames(): string[] {
  return readdirSync(ORDERS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();
}
