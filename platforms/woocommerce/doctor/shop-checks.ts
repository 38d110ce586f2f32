import { z } from 'zod';
import { ratesInForce, regionName } from '../../../law/vat-rates';
import type { TenantConfig } from '../../../connector/config/load-config';
import type { MappingSettings } from '../../../law/mapping-settings';
import { type WooShop } from '../woo-shop';
import { ShopRequestError } from '../../../connector/shop/shop';
import { couldNotCheck, fail, ok, warn, type Check, type Words } from '../../../connector/doctor/check';

const KEYS_PAGE = { en: 'WooCommerce > Settings > Advanced > REST API', pt: 'WooCommerce > Definições > Avançado > API REST' };

const READ = { en: 'REST key (read)', pt: 'Chave REST (leitura)' };
const ACCEPTED = { en: 'accepted', pt: 'aceite' };
const VERSION = { en: 'WooCommerce version', pt: 'Versão do WooCommerce' };
const ROUND = { en: 'Round tax at subtotal level', pt: 'Arredondar imposto ao nível do subtotal' };
const INCLUSIVE = { en: 'Prices entered with tax', pt: 'Preços com IVA incluído' };

const SystemStatusSchema = z.looseObject({ environment: z.looseObject({ version: z.string() }) });

/** Why the shop refused or did not answer, and what to do, for any REST call. */
export function shopCallProblem(error: unknown, tenant: TenantConfig): { detail: Words; fix: Words } {
  if (!(error instanceof ShopRequestError)) {
    return {
      detail: { en: `unexpected error: ${(error as Error).message}`, pt: `erro inesperado: «${(error as Error).message}»` },
      fix: { en: 'Run the doctor again; if it persists, report it with this message.', pt: 'Volte a correr o doctor; se continuar, comunique-o com esta mensagem.' },
    };
  }
  if (error.status === 0) {
    return {
      detail: { en: `no answer from ${tenant.shop.url}: ${error.message}`, pt: `${tenant.shop.url} não respondeu («${error.message}»)` },
      fix: { en: `Check shop.url (the shop's address, https://...) and that this machine can reach it.`, pt: 'Verifique shop.url (o endereço da loja, https://...) e se esta máquina lhe chega.' },
    };
  }
  if (error.status === 401 && /does not have read permissions/i.test(error.message)) {
    return {
      detail: { en: `the key may not read: ${error.message}`, pt: 'a chave não tem permissão de leitura (401)' },
      fix: { en: `In ${KEYS_PAGE.en}, edit the key and set Permissions to Read/Write.`, pt: `Em ${KEYS_PAGE.pt}, edite a chave e ponha as Permissões em Ler/Escrever.` },
    };
  }
  if (error.status === 401) {
    return {
      detail: { en: `the shop refused the REST key: ${error.message}`, pt: `a loja recusou a chave da API REST (401${error.code ? `, ${error.code}` : ''})` },
      fix: {
        en: `Copy the consumer key and secret of a Read/Write key from ${KEYS_PAGE.en} into shop.consumerKey and shop.consumerSecret (WooCommerce shows a secret only once: if it is lost, add a new key).`,
        pt: `Copie a chave e o segredo de cliente de uma chave Ler/Escrever de ${KEYS_PAGE.pt} para shop.consumerKey e shop.consumerSecret (o WooCommerce só mostra o segredo uma vez: se o perdeu, crie uma chave nova).`,
      },
    };
  }
  if (error.status === 404 && error.code === 'rest_no_route') {
    return {
      detail: { en: `no WooCommerce REST API at ${tenant.shop.url}/wp-json/wc/v3: ${error.message}`, pt: `não há API REST do WooCommerce em ${tenant.shop.url}/wp-json/wc/v3 (404 rest_no_route)` },
      fix: {
        en: 'Check shop.url, that WooCommerce is active, and WordPress > Settings > Permalinks is not "Plain".',
        pt: 'Verifique shop.url, se o WooCommerce está ativo e se em WordPress > Definições > Ligações permanentes não está "Simples".',
      },
    };
  }
  if (error.status === 403) {
    return {
      detail: { en: error.message, pt: `a loja recusou o pedido (403${error.code ? `, ${error.code}` : ''})` },
      fix: {
        en: `The key's user must be an administrator or shop manager: in ${KEYS_PAGE.en}, add a key for such a user.`,
        pt: `O utilizador da chave tem de ser administrador ou gestor de loja: em ${KEYS_PAGE.pt}, crie uma chave para um utilizador assim.`,
      },
    };
  }
  return {
    detail: { en: error.message, pt: `a loja respondeu HTTP ${error.status}${error.code ? ` (${error.code})` : ''}` },
    fix: { en: 'Check the shop is up (WooCommerce > Status) and run the doctor again.', pt: 'Confirme que a loja está a funcionar (WooCommerce > Estado) e volte a correr o doctor.' },
  };
}

/** The REST key can read (GET system_status, which also gives WooCommerce's version). Undefined version = stop the shop checks. */
export async function checkReadAccess(shop: WooShop, tenant: TenantConfig): Promise<{ checks: Check[]; readable: boolean }> {
  let status: z.infer<typeof SystemStatusSchema>;
  try {
    status = SystemStatusSchema.parse(await shop.systemStatus());
  } catch (error) {
    if (error instanceof z.ZodError) {
      return {
        checks: [
          ok('shop', READ, ACCEPTED),
          warn('shop', VERSION, couldNotCheck({ en: 'system_status has no environment.version', pt: 'o system_status não tem environment.version' }), {
            en: 'Open WooCommerce > Status and check the version is 3.7 or later.',
            pt: 'Abra WooCommerce > Estado e confirme que a versão é 3.7 ou posterior.',
          }),
        ],
        readable: true,
      };
    }
    const problem = shopCallProblem(error, tenant);
    return { checks: [fail('shop', READ, problem.detail, problem.fix)], readable: false };
  }
  const version = status.environment.version;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const versionCheck =
    major > 3 || (major === 3 && minor >= 7)
      ? ok('shop', VERSION, version)
      : warn(
          'shop',
          VERSION,
          { en: `${version}: before 3.7 orders carry no tax_lines[].rate_percent, so rates are derived from amounts`, pt: `${version}: antes da 3.7 as encomendas não trazem tax_lines[].rate_percent, por isso as taxas são deduzidas dos valores` },
          { en: 'Update WooCommerce (Dashboard > Updates).', pt: 'Atualize o WooCommerce (Painel > Atualizações).' },
        );
  return { checks: [ok('shop', READ, ACCEPTED), versionCheck], readable: true };
}

/**
 * The key can write, proven by a PUT that changes nothing: WooCommerce checks a key's permissions
 * before routing, so a read-only key gets 401 "does not have write permissions", a read/write key
 * reaches the orders route, which has no order 0 (invalid id).
 */
export async function checkWriteAccess(shop: WooShop, tenant: TenantConfig): Promise<Check> {
  const answer = await shop.probeWrite();
  const name = { en: 'REST key (write)', pt: 'Chave REST (escrita)' };
  if (answer && (answer.status === 400 || answer.status === 404) && answer.code.endsWith('_invalid_id')) {
    return ok('shop', name, { en: 'accepted (checked with a PUT of order 0, which does not exist: nothing changed)', pt: 'aceite (verificado com um PUT da encomenda 0, que não existe: nada mudou)' });
  }
  if (answer?.status === 401 && /write permissions/i.test(answer.message)) {
    return fail(
      'shop',
      name,
      { en: 'the key is read-only: the connector could not write the document number, PDF link and notes on orders', pt: 'a chave só permite ler: o conector não poderia escrever nas encomendas o número do documento, a ligação do PDF e as notas' },
      { en: `In ${KEYS_PAGE.en}, edit the key and set Permissions to Read/Write.`, pt: `Em ${KEYS_PAGE.pt}, edite a chave e ponha as Permissões em Ler/Escrever.` },
    );
  }
  if (answer) {
    const problem = shopCallProblem(answer, tenant);
    return fail('shop', name, problem.detail, problem.fix);
  }
  return warn('shop', name, couldNotCheck({ en: 'PUT orders/0 succeeded, which WooCommerce never does', pt: 'o PUT orders/0 foi aceite, o que o WooCommerce nunca faz' }), {
    en: 'Check that shop.url is a WooCommerce shop.',
    pt: 'Confirme que shop.url é uma loja WooCommerce.',
  });
}

/** "Round tax at subtotal level" and "Prices entered with tax": see docs/accountant.md and mapping-settings.ts. */
export async function checkTaxSettings(shop: WooShop, tenant: TenantConfig): Promise<Check[]> {
  const checks: Check[] = [];
  try {
    const round = await shop.setting('tax', 'woocommerce_tax_round_at_subtotal');
    checks.push(
      round === 'yes' || round === true
        ? ok('shop', ROUND, { en: 'on: the shop rounds VAT once per rate, as the invoice does', pt: 'ligado: a loja arredonda o IVA uma vez por taxa, como a fatura' })
        : warn(
            'shop',
            ROUND,
            {
              en: 'off: the shop rounds VAT per line, the invoice once per rate, so some totals differ by a cent (the connector then moves a line by a cent, or issues the nearest total and shows the difference)',
              pt: 'desligado: a loja arredonda o IVA linha a linha e a fatura uma vez por taxa, por isso alguns totais diferem num cêntimo (o conector acerta então uma linha num cêntimo, ou emite o total mais próximo e mostra a diferença)',
            },
            {
              en: 'WooCommerce > Settings > Tax > turn on "Round tax at subtotal level" (docs/accountant.md, Totals and rounding).',
              pt: 'Em WooCommerce > Definições > Impostos, ative "Arredondar imposto ao nível do subtotal" (docs/accountant.md, Totais e arredondamentos).',
            },
          ),
    );
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', ROUND, couldNotCheck(problem.detail), problem.fix));
  }
  try {
    const inclusive = await shop.setting('tax', 'woocommerce_prices_include_tax');
    checks.push(
      ok(
        'shop',
        INCLUSIVE,
        inclusive === 'yes' || inclusive === true
          ? { en: 'yes: net unit prices on the invoice keep up to 10 decimals (mapping.taxInclusiveUnitPrice)', pt: 'sim: os preços unitários sem IVA na fatura guardam até 10 casas decimais (mapping.taxInclusiveUnitPrice)' }
          : { en: 'no: prices are entered without VAT', pt: 'não: os preços são introduzidos sem IVA' },
      ),
    );
  } catch (error) {
    const problem = shopCallProblem(error, tenant);
    checks.push(warn('shop', INCLUSIVE, couldNotCheck(problem.detail), problem.fix));
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
  { name: 'mainland', pt: 'continente', postcode: '1000-001' },
  { name: 'Madeira', pt: 'Madeira', postcode: '9000-001' },
  { name: 'the Azores', pt: 'Açores', postcode: '9500-001' },
] as const;

const REGION_PT: Record<string, string> = { mainland: 'Portugal continental', madeira: 'a Madeira', azores: 'os Açores' };

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
      error instanceof z.ZodError
        ? {
            detail: { en: `unexpected answer of GET taxes: ${error.issues[0]?.message ?? ''}`, pt: 'resposta inesperada de GET taxes' },
            fix: { en: 'Check WooCommerce > Settings > Tax by hand.', pt: 'Verifique à mão WooCommerce > Definições > Impostos.' },
          }
        : shopCallProblem(error, tenant);
    return [warn('shop', { en: 'Portuguese VAT rates', pt: 'Taxas de IVA portuguesas' }, couldNotCheck(problem.detail), problem.fix)];
  }
  const region = mapping?.dispatchRegion ?? (await shop.storeAddressRegion().catch(() => undefined)) ?? 'mainland';
  const normal = Number(ratesInForce(region, new Date().toISOString().slice(0, 10)).find((r) => r.kind === 'normal')?.percent ?? 23);
  const regionPt = REGION_PT[region] ?? regionName(region);
  const shipsFrom = {
    en: `the shop dispatches from ${regionName(region)}${mapping?.dispatchRegion ? ' (dispatchRegion)' : ' (its store address)'}`,
    pt: `a loja expede de ${regionPt}${mapping?.dispatchRegion ? ' (dispatchRegion)' : ' (a sua morada)'}`,
  };
  const fix = {
    en: `WooCommerce > Settings > Tax > Standard rates: one row Country code PT, no postcode, Rate % ${normal}, Name IVA, Shipping ticked; delete rows that give 9xxx postcodes another rate (goods are taxed where they ship from, CIVA art. 6(1); DL 347/85 was revoked in 2022).`,
    pt: `Em WooCommerce > Definições > Impostos > Taxas normais: uma linha com o código de país PT, sem código postal, Taxa % ${normal}, Nome IVA, Envio assinalado; apague as linhas que dão outra taxa aos códigos postais 9xxx (os bens são tributados no lugar de onde são expedidos, art. 6.º, n.º 1, do CIVA; o DL 347/85 foi revogado em 2022).`,
  };
  return BUYERS.map((buyer) => {
    const name = { en: `VAT rate ${buyer.name.replace(/^the /, '')}`, pt: `Taxa de IVA ${buyer.pt}` };
    const rate = rateFor(rates, buyer.postcode);
    const percent = rate ? Number(rate.rate) : undefined;
    if (rate && percent === normal) {
      const id = `${rate.id}${rate.name ? ` "${rate.name}"` : ''}`;
      return ok('shop', name, { en: `${normal}% (rate id ${id}): ${shipsFrom.en}`, pt: `${normal} % (taxa ${id}): ${shipsFrom.pt}` });
    }
    if (!rate) {
      return buyer.name === 'mainland'
        ? fail('shop', name, { en: 'no standard tax rate for Portugal: orders would carry no VAT, and the invoice needs the rate of every line', pt: 'não há taxa normal para Portugal: as encomendas viriam sem IVA, e a fatura precisa da taxa de cada linha' }, fix)
        : warn('shop', name, { en: `no rate for a buyer at postcode ${buyer.postcode}`, pt: `não há taxa para um comprador com o código postal ${buyer.postcode}` }, fix);
    }
    const paid = rate.rate.replace(/\.?0+$/, '');
    const found = {
      en: `a buyer at postcode ${buyer.postcode} pays ${paid}% (rate id ${rate.id}), not the ${normal}% of ${regionName(region)}: ${shipsFrom.en}`,
      pt: `um comprador com o código postal ${buyer.postcode} paga ${paid} % (taxa ${rate.id}), e não os ${normal} % de ${regionPt}: ${shipsFrom.pt}`,
    };
    return buyer.name === 'mainland' && region === 'mainland'
      ? fail('shop', name, found, fix)
      : warn('shop', name, { en: `${found.en}; such orders are held`, pt: `${found.pt}; essas encomendas ficam retidas` }, fix);
  });
}

const RecentOrderSchema = z.looseObject({ id: z.number(), meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown().optional() })).default([]) });

/** The NIF meta keys configured appear on some of the shop's last orders. */
export async function checkNifMetaKeys(shop: WooShop, tenant: TenantConfig, mapping: MappingSettings, count = 20): Promise<Check> {
  const name = { en: 'NIF meta key', pt: 'Campo meta do NIF' };
  let orders: z.infer<typeof RecentOrderSchema>[];
  try {
    orders = z.array(RecentOrderSchema).parse((await shop.listOrderPage({ per_page: String(count), orderby: 'date', order: 'desc' })).orders);
  } catch (error) {
    const problem =
      error instanceof z.ZodError
        ? { detail: { en: 'unexpected answer of GET orders', pt: 'resposta inesperada de GET orders' }, fix: { en: 'Run the doctor again.', pt: 'Volte a correr o doctor.' } }
        : shopCallProblem(error, tenant);
    return warn('orders', name, couldNotCheck(problem.detail), problem.fix);
  }
  if (orders.length === 0) {
    return warn('orders', name, couldNotCheck({ en: 'the shop has no orders yet', pt: 'a loja ainda não tem encomendas' }), {
      en: 'Place a test order with a NIF and run the doctor again.',
      pt: 'Faça uma encomenda de teste com um NIF e volte a correr o doctor.',
    });
  }
  const filled = (value: unknown): boolean => (typeof value === 'string' ? value.trim() !== '' : typeof value === 'number');
  const withNif = orders.filter((order) => order.meta_data.some((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)));
  if (withNif.length > 0) {
    const keys = [...new Set(withNif.flatMap((order) => order.meta_data.filter((m) => mapping.nifMetaKeys.includes(m.key) && filled(m.value)).map((m) => m.key)))];
    return ok('orders', name, { en: `${keys.join(', ')} found on ${withNif.length} of the last ${orders.length} orders`, pt: `${keys.join(', ')} encontrado em ${withNif.length} das últimas ${orders.length} encomendas` });
  }
  const lookalikes = [...new Set(orders.flatMap((order) => order.meta_data.map((m) => m.key)).filter((key) => /nif|vat|contribuinte|tax_?id|fiscal/i.test(key)))];
  return fail(
    'orders',
    name,
    {
      en: `none of the last ${orders.length} orders has a NIF under ${mapping.nifMetaKeys.join(', ')}${lookalikes.length > 0 ? `; keys that look like one: ${lookalikes.join(', ')}` : ''}. Buyers' NIFs would be left off their invoices`,
      pt: `nenhuma das últimas ${orders.length} encomendas tem NIF em ${mapping.nifMetaKeys.join(', ')}${lookalikes.length > 0 ? `; campos que parecem sê-lo: ${lookalikes.join(', ')}` : ''}. Os NIF dos compradores ficariam fora das faturas`,
    },
    lookalikes.length > 0
      ? {
          en: `Add the key your checkout uses to settings.mapping.nifMetaKeys (e.g. nifMetaKeys: [${lookalikes.map((k) => `"${k}"`).join(', ')}]).`,
          pt: `Acrescente a settings.mapping.nifMetaKeys o campo que o seu checkout usa (por exemplo, nifMetaKeys: [${lookalikes.map((k) => `"${k}"`).join(', ')}]).`,
        }
      : {
          en: "Find the meta key your checkout's NIF field writes (an order with a NIF, Custom fields box) and list it in settings.mapping.nifMetaKeys; if none of these buyers gave a NIF, check again after one does.",
          pt: 'Descubra o campo meta onde o campo NIF do seu checkout escreve (numa encomenda com NIF, caixa Campos personalizados) e indique-o em settings.mapping.nifMetaKeys; se nenhum destes compradores deu NIF, verifique de novo depois de um o dar.',
        },
  );
}
