import { z } from 'zod';
import { ratesInForce, type DispatchRegion } from '../../../law/vat-rates';
import type { TenantConfig } from '../../../connector/config/load-config';
import type { MappingSettings } from '../../../law/mapping-settings';
import { type WooShop } from '../woo-shop';
import { ShopRequestError } from '../../../connector/shop/shop';
import { couldNotCheck, fail, ok, warn, type Check, type Words } from '../../../connector/doctor/check';
import { wooSays } from './woo-doctor-messages';

const SystemStatusSchema = z.looseObject({ environment: z.looseObject({ version: z.string() }) });

/** Why the shop refused or did not answer, and what to do, for any REST call. */
export function shopCallProblem(error: unknown, tenant: TenantConfig): { detail: Words; fix: Words } {
  if (!(error instanceof ShopRequestError)) return { detail: wooSays('unexpected-error', { error: (error as Error).message }), fix: wooSays('report-it-fix') };
  const { message, code, status } = error;
  if (status === 0) return { detail: wooSays('shop-silent', { url: tenant.shop.url, error: message }), fix: wooSays('shop-silent-fix') };
  if (status === 401 && /does not have read permissions/i.test(message)) return { detail: wooSays('key-may-not-read', { error: message }), fix: wooSays('read-write-fix') };
  if (status === 401) return { detail: wooSays('key-refused', { error: message, code }), fix: wooSays('key-refused-fix') };
  if (status === 404 && code === 'rest_no_route') return { detail: wooSays('no-rest-api', { url: tenant.shop.url, error: message }), fix: wooSays('no-rest-api-fix') };
  if (status === 403) return { detail: wooSays('forbidden', { error: message, code }), fix: wooSays('forbidden-fix') };
  return { detail: wooSays('http-error', { error: message, status, code }), fix: wooSays('http-error-fix') };
}

/** The REST key can read (GET system_status, which also gives WooCommerce's version). Undefined version = stop the shop checks. */
export async function checkReadAccess(shop: WooShop, tenant: TenantConfig): Promise<{ checks: Check[]; readable: boolean }> {
  const read = wooSays('read-name');
  const versionName = wooSays('version-name');
  let status: z.infer<typeof SystemStatusSchema>;
  try {
    status = SystemStatusSchema.parse(await shop.systemStatus());
  } catch (error) {
    if (error instanceof z.ZodError) {
      return {
        checks: [ok('shop', read, wooSays('accepted')), warn('shop', versionName, couldNotCheck(wooSays('version-unreadable')), wooSays('version-unreadable-fix'))],
        readable: true,
      };
    }
    const problem = shopCallProblem(error, tenant);
    return { checks: [fail('shop', read, problem.detail, problem.fix)], readable: false };
  }
  const version = status.environment.version;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const versionCheck =
    major > 3 || (major === 3 && minor >= 7) ? ok('shop', versionName, version) : warn('shop', versionName, wooSays('version-old', { version }), wooSays('version-old-fix'));
  return { checks: [ok('shop', read, wooSays('accepted')), versionCheck], readable: true };
}

/**
 * The key can write, proven by a PUT that changes nothing: WooCommerce checks a key's permissions
 * before routing, so a read-only key gets 401 "does not have write permissions", a read/write key
 * reaches the orders route, which has no order 0 (invalid id).
 */
export async function checkWriteAccess(shop: WooShop, tenant: TenantConfig): Promise<Check> {
  const answer = await shop.probeWrite();
  const name = wooSays('write-name');
  if (answer && (answer.status === 400 || answer.status === 404) && answer.code.endsWith('_invalid_id')) return ok('shop', name, wooSays('write-ok'));
  if (answer?.status === 401 && /write permissions/i.test(answer.message)) return fail('shop', name, wooSays('write-read-only'), wooSays('read-write-fix'));
  if (answer) {
    const problem = shopCallProblem(answer, tenant);
    return fail('shop', name, problem.detail, problem.fix);
  }
  return warn('shop', name, couldNotCheck(wooSays('write-unexpected')), wooSays('write-unexpected-fix'));
}

/** "Round tax at subtotal level" and "Prices entered with tax": see docs/accountant.md and mapping-settings.ts. */
export async function checkTaxSettings(shop: WooShop, tenant: TenantConfig): Promise<Check[]> {
  const checks: Check[] = [];
  const round = wooSays('round-name');
  const inclusive = wooSays('inclusive-name');
  try {
    const rounds = await shop.setting('tax', 'woocommerce_tax_round_at_subtotal');
    checks.push(rounds === 'yes' || rounds === true ? ok('shop', round, wooSays('round-on')) : warn('shop', round, wooSays('round-off'), wooSays('round-off-fix')));
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', round, couldNotCheck(problem.detail), problem.fix));
  }
  try {
    const included = await shop.setting('tax', 'woocommerce_prices_include_tax');
    checks.push(ok('shop', inclusive, wooSays(included === 'yes' || included === true ? 'inclusive-yes' : 'inclusive-no')));
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', inclusive, couldNotCheck(problem.detail), problem.fix));
  }
  return checks;
}

const TaxRateSchema = z.looseObject({
  id: z.number(),
  country: z.string(),
  state: z.string().default(''),
  postcode: z.string().default(''),
  postcodes: z.array(z.string()).optional(),
  rate: z.string(),
  name: z.string().default(''),
  class: z.string().default('standard'),
});
type TaxRate = z.infer<typeof TaxRateSchema>;

/**
 * Buyers in each region, by a postcode there: goods are taxed where they ship from (CIVA art. 6(1)),
 * so every one of them must pay the rate of the shop's dispatch region; postcode rows that charge
 * 9xxx buyers their region's rate follow the revoked DL 347/85 (Lei 12/2022).
 */
const BUYERS: readonly { region: DispatchRegion; postcode: string }[] = [
  { region: 'mainland', postcode: '1000-001' },
  { region: 'madeira', postcode: '9000-001' },
  { region: 'azores', postcode: '9500-001' },
];

/**
 * WooCommerce's postcode patterns (wc_postcode_location_matcher): exact, a prefix ending in *, or a
 * numeric range a...b compared with the whole postcode without spaces and dashes, so 9000-001 is
 * 9000001 and lies in 9000000...9399999 but not in 9000...9399.
 */
export function postcodeMatches(pattern: string, postcode: string): boolean {
  const normalize = (text: string): string => text.toUpperCase().replace(/[\s-]/g, '');
  const code = normalize(postcode);
  const wanted = normalize(pattern);
  if (wanted === '') return true;
  if (wanted.endsWith('*')) return code.startsWith(wanted.slice(0, -1));
  const range = wanted.split('...');
  if (range.length === 2) {
    return [code, ...range].every((part) => /^\d+$/.test(part)) && Number(code) >= Number(range[0]) && Number(code) <= Number(range[1]);
  }
  return code === wanted;
}

/** The standard-class Portuguese rate WooCommerce would pick for this postcode: a postcode-specific one before a country-wide one. */
function rateFor(rates: readonly TaxRate[], postcode: string): TaxRate | undefined {
  const candidates = rates.filter((rate) => rate.country === 'PT' && rate.class === 'standard' && rate.state === '');
  const patterns = (rate: TaxRate): string[] => (rate.postcodes && rate.postcodes.length > 0 ? rate.postcodes : rate.postcode.split(';').filter(Boolean));
  return (
    candidates.find((rate) => patterns(rate).length > 0 && patterns(rate).some((p) => postcodeMatches(p, postcode))) ??
    candidates.find((rate) => patterns(rate).length === 0)
  );
}

/**
 * The standard Portuguese rate WooCommerce charges a buyer in each region must be the normal rate of
 * the region the shop dispatches from (mapping dispatchRegion, else its store address, else
 * mainland): a missing rate fails, another rate warns (the mapping holds such orders).
 */
export async function checkPortugueseRates(shop: WooShop, tenant: TenantConfig, mapping?: MappingSettings): Promise<Check[]> {
  let rates: TaxRate[];
  try {
    rates = z.array(TaxRateSchema).parse(await shop.listTaxRates());
  } catch (error) {
    const problem =
      error instanceof z.ZodError ? { detail: wooSays('rates-unexpected', { error: error.issues[0]?.message ?? '' }), fix: wooSays('rates-unexpected-fix') } : shopCallProblem(error, tenant);
    return [warn('shop', wooSays('rates-name'), couldNotCheck(problem.detail), problem.fix)];
  }
  const region = mapping?.dispatchRegion ?? (await shop.storeAddressRegion().catch(() => undefined)) ?? 'mainland';
  const normal = String(Number(ratesInForce(region, new Date().toISOString().slice(0, 10)).find((r) => r.kind === 'normal')?.percent ?? 23));
  const shipsFrom = { region, fromSetting: mapping?.dispatchRegion !== undefined };
  const fix = wooSays('rates-fix', { normal });
  return BUYERS.map((buyer) => {
    const name = wooSays('rate-name', { buyer: buyer.region });
    const rate = rateFor(rates, buyer.postcode);
    if (rate && Number(rate.rate) === Number(normal)) return ok('shop', name, wooSays('rate-ok', { normal, rateId: rate.id, rateName: rate.name, ...shipsFrom }));
    if (!rate) {
      return buyer.region === 'mainland' ? fail('shop', name, wooSays('rate-missing-mainland'), fix) : warn('shop', name, wooSays('rate-missing', { postcode: buyer.postcode }), fix);
    }
    // A mainland buyer charged another rate by a mainland shop is wrong on every order; elsewhere the mapping holds such orders.
    const wrongEverywhere = buyer.region === 'mainland' && region === 'mainland';
    const found = wooSays('rate-other', { postcode: buyer.postcode, paid: rate.rate, rateId: rate.id, normal, held: !wrongEverywhere, ...shipsFrom });
    return wrongEverywhere ? fail('shop', name, found, fix) : warn('shop', name, found, fix);
  });
}

const RecentOrderSchema = z.looseObject({ id: z.number(), meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown().optional() })).default([]) });

/** The NIF meta keys configured appear on some of the shop's last orders. */
export async function checkNifMetaKeys(shop: WooShop, tenant: TenantConfig, mapping: MappingSettings, count = 20): Promise<Check> {
  const name = wooSays('nif-name');
  let orders: z.infer<typeof RecentOrderSchema>[];
  try {
    orders = z.array(RecentOrderSchema).parse((await shop.listOrderPage({ per_page: String(count), orderby: 'date', order: 'desc' })).orders);
  } catch (error) {
    const problem = error instanceof z.ZodError ? { detail: wooSays('orders-unexpected'), fix: wooSays('run-again-fix') } : shopCallProblem(error, tenant);
    return warn('orders', name, couldNotCheck(problem.detail), problem.fix);
  }
  if (orders.length === 0) return warn('orders', name, couldNotCheck(wooSays('no-orders')), wooSays('no-orders-fix'));
  const filled = (value: unknown): boolean => (typeof value === 'string' ? value.trim() !== '' : typeof value === 'number');
  const withNif = orders.filter((order) => order.meta_data.some((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)));
  if (withNif.length > 0) {
    const keys = [...new Set(withNif.flatMap((order) => order.meta_data.filter((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)).map((m) => m.key)))];
    return ok('orders', name, wooSays('nif-found', { keys, found: withNif.length, orders: orders.length }));
  }
  const lookalikes = [...new Set(orders.flatMap((order) => order.meta_data.map((m) => m.key)).filter((key) => /nif|vat|contribuinte|tax_?id|fiscal/i.test(key)))];
  return fail(
    'orders',
    name,
    wooSays('nif-missing', { orders: orders.length, keys: mapping.nifMetaKeys, lookalikes }),
    lookalikes.length > 0 ? wooSays('nif-lookalike-fix', { lookalikes }) : wooSays('nif-missing-fix'),
  );
}
