import { z } from 'zod';
import { ratesInForce, regionName } from '../../webhooks/woocommerce/vat-rates';
import type { TenantConfig } from '../config/load-config';
import type { MappingSettings } from '../../webhooks/woocommerce/mapping-settings';
import { ShopRequestError, type WooShop } from '../shop/woo-shop';
import { fail, ok, warn, type Check } from './check';

const KEYS_PAGE = 'WooCommerce > Settings > Advanced > REST API';

const SystemStatusSchema = z.looseObject({ environment: z.looseObject({ version: z.string() }) });

/** Why the shop refused or did not answer, and what to do, for any REST call. */
export function shopCallProblem(error: unknown, tenant: TenantConfig): { detail: string; fix: string } {
  if (!(error instanceof ShopRequestError)) return { detail: `unexpected error: ${(error as Error).message}`, fix: 'Run the doctor again; if it persists, report it with this message.' };
  if (error.status === 0) {
    return { detail: `no answer from ${tenant.shop.url}: ${error.message}`, fix: `Check shop.url (the shop's address, https://...) and that this machine can reach it.` };
  }
  if (error.status === 401 && /does not have read permissions/i.test(error.message)) {
    return { detail: `the key may not read: ${error.message}`, fix: `In ${KEYS_PAGE}, edit the key and set Permissions to Read/Write.` };
  }
  if (error.status === 401) {
    return {
      detail: `the shop refused the REST key: ${error.message}`,
      fix: `Copy the consumer key and secret of a Read/Write key from ${KEYS_PAGE} into shop.consumerKey and shop.consumerSecret (WooCommerce shows a secret only once: if it is lost, add a new key).`,
    };
  }
  if (error.status === 404 && error.code === 'rest_no_route') {
    return { detail: `no WooCommerce REST API at ${tenant.shop.url}/wp-json/wc/v3: ${error.message}`, fix: 'Check shop.url, that WooCommerce is active, and WordPress > Settings > Permalinks is not "Plain".' };
  }
  if (error.status === 403) {
    return { detail: error.message, fix: `The key's user must be an administrator or shop manager: in ${KEYS_PAGE}, add a key for such a user.` };
  }
  return { detail: error.message, fix: 'Check the shop is up (WooCommerce > Status) and run the doctor again.' };
}

/** The REST key can read (GET system_status, which also gives WooCommerce's version). Undefined version = stop the shop checks. */
export async function checkReadAccess(shop: WooShop, tenant: TenantConfig): Promise<{ checks: Check[]; readable: boolean }> {
  let status: z.infer<typeof SystemStatusSchema>;
  try {
    status = SystemStatusSchema.parse(await shop.systemStatus());
  } catch (error) {
    if (error instanceof z.ZodError) {
      return { checks: [ok('shop', 'REST key (read)', 'accepted'), warn('shop', 'WooCommerce version', 'could not check: system_status has no environment.version', 'Open WooCommerce > Status and check the version is 3.7 or later.')], readable: true };
    }
    const problem = shopCallProblem(error, tenant);
    return { checks: [fail('shop', 'REST key (read)', problem.detail, problem.fix)], readable: false };
  }
  const version = status.environment.version;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const versionCheck =
    major > 3 || (major === 3 && minor >= 7)
      ? ok('shop', 'WooCommerce version', version)
      : warn('shop', 'WooCommerce version', `${version}: before 3.7 orders carry no tax_lines[].rate_percent, so rates are derived from amounts`, 'Update WooCommerce (Dashboard > Updates).');
  return { checks: [ok('shop', 'REST key (read)', 'accepted'), versionCheck], readable: true };
}

/**
 * The key can write, proven by a PUT that changes nothing: WooCommerce checks a key's permissions
 * before routing, so a read-only key gets 401 "does not have write permissions", a read/write key
 * reaches the orders route, which has no order 0 (invalid id).
 */
export async function checkWriteAccess(shop: WooShop, tenant: TenantConfig): Promise<Check> {
  const answer = await shop.probeWrite();
  const name = 'REST key (write)';
  if (answer && (answer.status === 400 || answer.status === 404) && answer.code.endsWith('_invalid_id')) return ok('shop', name, 'accepted (checked with a PUT of order 0, which does not exist: nothing changed)');
  if (answer?.status === 401 && /write permissions/i.test(answer.message)) {
    return fail('shop', name, 'the key is read-only: the connector could not write the document number, PDF link and notes on orders', `In ${KEYS_PAGE}, edit the key and set Permissions to Read/Write.`);
  }
  if (answer) {
    const problem = shopCallProblem(answer, tenant);
    return fail('shop', name, problem.detail, problem.fix);
  }
  return warn('shop', name, 'could not check: PUT orders/0 succeeded, which WooCommerce never does', 'Check that shop.url is a WooCommerce shop.');
}

/** "Round tax at subtotal level" and "Prices entered with tax": see docs/accountant.md and mapping-settings.ts. */
export async function checkTaxSettings(shop: WooShop, tenant: TenantConfig): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    const round = await shop.setting('tax', 'woocommerce_tax_round_at_subtotal');
    checks.push(
      round === 'yes' || round === true
        ? ok('shop', 'Round tax at subtotal level', 'on: the shop rounds VAT once per rate, as the invoice does')
        : warn(
            'shop',
            'Round tax at subtotal level',
            'off: the shop rounds VAT per line, the invoice once per rate, so some totals differ by a cent (the connector then moves a line by a cent, or issues the nearest total and shows the difference)',
            'WooCommerce > Settings > Tax > turn on "Round tax at subtotal level" (docs/accountant.md, Totals and rounding).',
          ),
    );
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', 'Round tax at subtotal level', `could not check: ${problem.detail}`, problem.fix));
  }
  try {
    const inclusive = await shop.setting('tax', 'woocommerce_prices_include_tax');
    checks.push(
      ok('shop', 'Prices entered with tax', inclusive === 'yes' || inclusive === true ? 'yes: net unit prices on the invoice keep up to 10 decimals (mapping.taxInclusiveUnitPrice)' : 'no: prices are entered without VAT'),
    );
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', 'Prices entered with tax', `could not check: ${problem.detail}`, problem.fix));
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
const BUYERS = [
  { name: 'mainland', postcode: '1000-001' },
  { name: 'Madeira', postcode: '9000-001' },
  { name: 'the Azores', postcode: '9500-001' },
] as const;

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
    const problem = error instanceof z.ZodError ? { detail: `unexpected answer of GET taxes: ${error.issues[0]?.message ?? ''}`, fix: 'Check WooCommerce > Settings > Tax by hand.' } : shopCallProblem(error, tenant);
    return [warn('shop', 'Portuguese VAT rates', `could not check: ${problem.detail}`, problem.fix)];
  }
  const region = mapping?.dispatchRegion ?? (await shop.storeAddressRegion().catch(() => undefined)) ?? 'mainland';
  const normal = Number(ratesInForce(region, new Date().toISOString().slice(0, 10)).find((r) => r.kind === 'normal')?.percent ?? 23);
  const shipsFrom = `the shop dispatches from ${regionName(region)}${mapping?.dispatchRegion ? ' (dispatchRegion)' : ' (its store address)'}`;
  const fix = `WooCommerce > Settings > Tax > Standard rates: one row Country code PT, no postcode, Rate % ${normal}, Name IVA, Shipping ticked; delete rows that give 9xxx postcodes another rate (goods are taxed where they ship from, CIVA art. 6(1); DL 347/85 was revoked in 2022).`;
  return BUYERS.map((buyer) => {
    const name = `VAT rate ${buyer.name.replace(/^the /, '')}`;
    const rate = rateFor(rates, buyer.postcode);
    const percent = rate ? Number(rate.rate) : undefined;
    if (rate && percent === normal) return ok('shop', name, `${normal}% (rate id ${rate.id}${rate.name ? ` "${rate.name}"` : ''}): ${shipsFrom}`);
    if (!rate) {
      return buyer.name === 'mainland'
        ? fail('shop', name, 'no standard tax rate for Portugal: orders would carry no VAT, and the invoice needs the rate of every line', fix)
        : warn('shop', name, `no rate for a buyer at postcode ${buyer.postcode}`, fix);
    }
    const found = `a buyer at postcode ${buyer.postcode} pays ${rate.rate.replace(/\.?0+$/, '')}% (rate id ${rate.id}), not the ${normal}% of ${regionName(region)}: ${shipsFrom}`;
    return buyer.name === 'mainland' && region === 'mainland' ? fail('shop', name, found, fix) : warn('shop', name, `${found}; such orders are held`, fix);
  });
}

const RecentOrderSchema = z.looseObject({ id: z.number(), meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown().optional() })).default([]) });

/** The NIF meta keys configured appear on some of the shop's last orders. */
export async function checkNifMetaKeys(shop: WooShop, tenant: TenantConfig, mapping: MappingSettings, count = 20): Promise<Check> {
  const name = 'NIF meta key';
  let orders: z.infer<typeof RecentOrderSchema>[];
  try {
    orders = z.array(RecentOrderSchema).parse((await shop.listOrders({ per_page: String(count), orderby: 'date', order: 'desc' })).orders);
  } catch (error) {
    const problem = error instanceof z.ZodError ? { detail: 'unexpected answer of GET orders', fix: 'Run the doctor again.' } : shopCallProblem(error, tenant);
    return warn('orders', name, `could not check: ${problem.detail}`, problem.fix);
  }
  if (orders.length === 0) return warn('orders', name, 'could not check: the shop has no orders yet', 'Place a test order with a NIF and run the doctor again.');
  const filled = (value: unknown): boolean => (typeof value === 'string' ? value.trim() !== '' : typeof value === 'number');
  const withNif = orders.filter((order) => order.meta_data.some((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)));
  if (withNif.length > 0) {
    const keys = [...new Set(withNif.flatMap((order) => order.meta_data.filter((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)).map((m) => m.key)))];
    return ok('orders', name, `${keys.join(', ')} found on ${withNif.length} of the last ${orders.length} orders`);
  }
  const lookalikes = [...new Set(orders.flatMap((order) => order.meta_data.map((m) => m.key)).filter((key) => /nif|vat|contribuinte|tax_?id|fiscal/i.test(key)))];
  return fail(
    'orders',
    name,
    `none of the last ${orders.length} orders has a NIF under ${mapping.nifMetaKeys.join(', ')}${lookalikes.length > 0 ? `; keys that look like one: ${lookalikes.join(', ')}` : ''}. Buyers' NIFs would be left off their invoices`,
    lookalikes.length > 0
      ? `Add the key your checkout uses to settings.mapping.nifMetaKeys (e.g. nifMetaKeys: [${lookalikes.map((k) => `"${k}"`).join(', ')}]).`
      : "Find the meta key your checkout's NIF field writes (an order with a NIF, Custom fields box) and list it in settings.mapping.nifMetaKeys; if none of these buyers gave a NIF, check again after one does.",
  );
}
