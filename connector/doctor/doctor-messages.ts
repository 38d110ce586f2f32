import { z } from 'zod';
import { catalogue, fixed, inEveryLang, words } from '../../messages/catalogue';
import type { Lang, PerLang } from '../../messages/lang';
import { countOf, type CountWords } from '../../messages/plural';
import { calendarDay, shopDateTime } from '../../messages/dates';
import { money } from '../../messages/money';
import { REGIME_53 } from '../../law/small-business-regime';

/**
 * The doctor's sentences with facts in them (its reader: the operator who sets the connector up,
 * an agency's or the shop's own), as codes with typed parameters per language (messages/catalogue.ts).
 * A check keeps both languages (its JSON carries `pt` beside the English), so `doctorSays` words an
 * entry in each.
 */

const S = z.string();
const N = z.number();
const OPT = z.string().optional();

const CHECKS: PerLang<CountWords> = { en: { one: 'problem', other: 'problems' }, pt: { one: 'problema', other: 'problemas' } };
const WARNINGS: PerLang<CountWords> = { en: { one: 'warning', other: 'warnings' }, pt: { one: 'aviso', other: 'avisos' } };
const SHOPS_QUIET: PerLang<CountWords> = {
  en: { one: 'shop without a problem or a warning left out', other: 'shops without a problem or a warning left out' },
  pt: { one: 'loja sem problemas nem avisos omitida', other: 'lojas sem problemas nem avisos omitidas' },
};

const GO_LIVE_RULE: PerLang = {
  en: 'orders sold before it are never invoiced by a delivery, an update or a sweep; only a backfill issues them',
  pt: 'as encomendas vendidas antes desse momento nunca são faturadas por uma entrega, atualização ou sincronização; só um backfill as emite',
};

/** An ISO instant on the shop's clock ("23/07/2026, 11:00"); anything else as it came. */
function at(lang: Lang, iso: string, timeZone: string): string {
  return Number.isNaN(Date.parse(iso)) ? iso : shopDateTime(lang, Date.parse(iso), timeZone);
}

/** "the token is company X's (tenant t; the agency's partner «P»)": what the file knows of a wrong token's company. */
const holder = {
  en: (p: { actual?: string; actualTenant?: string; actualPartner?: string }): string => {
    if (!p.actual) return '';
    const known = [p.actualTenant ? `tenant ${p.actualTenant}` : '', p.actualPartner ? `the agency's partner "${p.actualPartner}" in agency.partners` : ''].filter(Boolean).join('; ');
    return `; the token is company ${p.actual}'s${known ? ` (${known})` : ''}`;
  },
  pt: (p: { actual?: string; actualTenant?: string; actualPartner?: string }): string => {
    if (!p.actual) return '';
    const known = [p.actualTenant ? `loja ${p.actualTenant}` : '', p.actualPartner ? `parceira da agência «${p.actualPartner}» em agency.partners` : ''].filter(Boolean).join('; ');
    return `; o token é da empresa ${p.actual}${known ? ` (${known})` : ''}`;
  },
};

export const DOCTOR = catalogue({
  // The report's frame.
  'tenant-heading': words({ tenant: S, shop: S }, { en: (p) => `Tenant ${p.tenant} (${p.shop})`, pt: (p) => `Loja ${p.tenant} (${p.shop})` }),
  fix: fixed({ en: 'fix', pt: 'correção' }),
  counts: words(
    { problems: N, warnings: N },
    { en: (p) => `${countOf('en', p.problems, CHECKS.en)}, ${countOf('en', p.warnings, WARNINGS.en)}`, pt: (p) => `${countOf('pt', p.problems, CHECKS.pt)}, ${countOf('pt', p.warnings, WARNINGS.pt)}` },
  ),
  ready: fixed({ en: 'READY', pt: 'PRONTO' }),
  'not-ready': fixed({ en: 'NOT READY', pt: 'NÃO ESTÁ PRONTO' }),
  'dry-run-heading': words(
    { orders: N },
    {
      en: (p) => `Dry run: the last ${countOf('en', p.orders, { one: 'order', other: 'orders' })} in a trigger status (nothing issued)`,
      pt: (p) => `Simulação: ${p.orders === 1 ? 'a última encomenda' : `as últimas ${p.orders} encomendas`} num estado que fatura (nada emitido)`,
    },
  ),
  'dry-run-none': fixed({ en: 'no orders in a trigger status', pt: 'nenhuma encomenda num estado que fatura' }),
  'dry-run-advance-payments': words(
    { orders: N },
    {
      en: (p) =>
        `${countOf('en', p.orders, { one: 'order was', other: 'orders were' })} paid in part or before the supply (a deposit, an instalment, a pre-order paid upfront): the connector does not invoice ${p.orders === 1 ? 'it' : 'them'} as the whole order (CIVA art. 36(1)(c): each payment is invoiced the day it is received); ${p.orders === 1 ? 'it is' : 'they are'} on the console's not-invoiced list, with what to do`,
      pt: (p) =>
        `${p.orders === 1 ? '1 encomenda foi paga' : `${p.orders} encomendas foram pagas`} em parte ou antes da entrega (um sinal, uma prestação, uma pré-encomenda paga): o conector não ${p.orders === 1 ? 'a' : 'as'} fatura como encomenda inteira (art. 36.º, n.º 1, alínea c), do CIVA: cada pagamento fatura-se no dia em que é recebido); ${p.orders === 1 ? 'está' : 'estão'} na lista das não faturadas da consola, com o que fazer`,
    },
  ),
  'shop-total': fixed({ en: 'shop total', pt: 'total da loja' }),
  shop: fixed({ en: 'shop', pt: 'loja' }),
  exemption: fixed({ en: 'exemption', pt: 'isenção' }),
  'all-fine': fixed({ en: 'no problems, no warnings', pt: 'sem problemas nem avisos' }),
  'quiet-shops': words({ shops: N }, { en: (p) => countOf('en', p.shops, SHOPS_QUIET.en), pt: (p) => countOf('pt', p.shops, SHOPS_QUIET.pt) }),

  // Any check.
  'could-not-check': words({ detail: S }, { en: (p) => `could not check: ${p.detail}`, pt: (p) => `não foi possível verificar: ${p.detail}` }),

  // The dry run.
  'dry-run-name': fixed({ en: 'dry run', pt: 'simulação' }),
  'dry-run-unreadable': words({ detail: S }, { en: (p) => `could not read the shop's orders: ${p.detail}`, pt: (p) => `não foi possível ler as encomendas da loja: ${p.detail}` }),
  'dry-run-not-built': words({ error: S }, { en: (p) => `could not build the document: ${p.error}`, pt: (p) => `não foi possível preparar o documento: «${p.error}»` }),
  'other-system': words(
    { system: S, key: S, value: S },
    {
      en: (p) => `another system's document is on it (${p.system}: ${p.key} = ${p.value}); never invoiced here`,
      pt: (p) => `tem um documento de outro sistema (${p.system}: ${p.key} = ${p.value}); nunca é faturada aqui`,
    },
  ),
  'before-go-live': words(
    { soldAt: S, goLiveAt: S, timeZone: S },
    {
      en: (p) => `sold ${at('en', p.soldAt, p.timeZone)}, before the go-live cut-off ${at('en', p.goLiveAt, p.timeZone)}; only a backfill would issue it`,
      pt: (p) => `vendida a ${at('pt', p.soldAt, p.timeZone)}, antes do início da faturação (${at('pt', p.goLiveAt, p.timeZone)}); só um backfill a emitiria`,
    },
  ),
  'already-done': words({ number: S }, { en: (p) => `already has its document: ${p.number}`, pt: (p) => `já tem o seu documento: ${p.number}` }),

  // The go-live cut-off (ingest/go-live.ts).
  'go-live-name': fixed({ en: 'go-live cut-off', pt: 'Início da faturação' }),
  'go-live-at': words(
    { at: S, timeZone: S, from: z.enum(['setting', 'first-start']) },
    {
      en: (p) => `${at('en', p.at, p.timeZone)} (${p.from === 'setting' ? 'settings.goLiveAt' : "the tenant's first start"}): ${GO_LIVE_RULE.en}`,
      pt: (p) => `${at('pt', p.at, p.timeZone)} (${p.from === 'setting' ? 'settings.goLiveAt' : 'o primeiro arranque da loja'}): ${GO_LIVE_RULE.pt}`,
    },
  ),
  'go-live-not-started': fixed({ en: `not started yet: the first start will be the cut-off; ${GO_LIVE_RULE.en}`, pt: `ainda não arrancou: o primeiro arranque será o início; ${GO_LIVE_RULE.pt}` }),
  'go-live-unreadable': words({ error: S }, { en: (p) => `could not read it from Redis (${p.error})`, pt: (p) => `não foi possível lê-lo do Redis (${p.error})` }),
  'go-live-unreadable-fix': fixed({ en: 'Make Redis reachable; or fix the cut-off with settings.goLiveAt.', pt: 'Torne o Redis acessível, ou fixe o início com settings.goLiveAt.' }),

  // The shop's order statuses (status-checks.ts).
  'statuses-name': fixed({ en: 'trigger statuses', pt: 'Estados que faturam' }),
  'statuses-unlisted': words(
    { detail: S },
    { en: (p) => `could not check: the shop did not list its order statuses (${p.detail})`, pt: (p) => `não foi possível verificar: a loja não listou os seus estados de encomenda (${p.detail})` },
  ),
  'statuses-ok': words({ statuses: S }, { en: (p) => `${p.statuses}: statuses of the shop`, pt: (p) => `${p.statuses}: estados da loja` }),
  'statuses-unknown': words(
    { unknown: S },
    {
      en: (p) => `the shop has no order status ${p.unknown}: it refuses the sweep's listing of it (400 rest_invalid_param) and no order in it is ever invoiced`,
      pt: (p) => `a loja não tem o estado de encomenda ${p.unknown}: recusa a listagem da sincronização (400 rest_invalid_param) e nenhuma encomenda nesse estado chega a ser faturada`,
    },
  ),
  'statuses-unknown-fix': words(
    { tenant: S, known: S },
    {
      en: (p) => `Set settings.triggerStatuses of tenant "${p.tenant}" to statuses of the shop (their slugs, without "wc-"): ${p.known}.`,
      pt: (p) => `Defina em settings.triggerStatuses da loja "${p.tenant}" estados que a loja tenha (o identificador, sem "wc-"): ${p.known}.`,
    },
  ),

  // Redis (redis-checks.ts).
  'redis-reachable': fixed({ en: 'Redis reachable', pt: 'Redis acessível' }),
  'redis-aof': fixed({ en: 'Redis persistence (AOF)', pt: 'Persistência do Redis (AOF)' }),
  'redis-eviction': fixed({ en: 'Redis eviction policy', pt: 'Política de despejo do Redis' }),
  'redis-silent': words({ url: S, error: S }, { en: (p) => `no answer from ${p.url}: ${p.error}`, pt: (p) => `${p.url} não respondeu: ${p.error}` }),
  'redis-silent-fix': fixed({ en: 'Start Redis, or fix redis.url (and redis.tls / redis.cluster) in the config.', pt: 'Arranque o Redis, ou corrija redis.url (e redis.tls / redis.cluster) na configuração.' }),
  'redis-config-refused': words(
    { error: S },
    { en: (p) => `could not check: CONFIG GET is refused here (${p.error})`, pt: (p) => `não foi possível verificar: aqui o CONFIG GET é recusado (resposta do Redis: «${p.error}»)` },
  ),
  'redis-aof-unknown-fix': fixed({
    en: 'Make sure the server runs with appendonly yes (managed Redis: turn on persistence/AOF in its console).',
    pt: 'Confirme que o servidor corre com appendonly yes (Redis gerido: ative a persistência AOF na sua consola).',
  }),
  'redis-aof-off': words(
    { value: S },
    {
      en: (p) => `appendonly ${p.value}: a restart of Redis loses the queue and the ledger written since the last snapshot, and with them the proof of what was issued`,
      pt: (p) => `appendonly ${p.value}: um reinício do Redis perde a fila e o registo escritos desde o último snapshot e, com eles, a prova do que foi emitido`,
    },
  ),
  'redis-aof-off-fix': fixed({
    en: 'Set appendonly yes in redis.conf (or CONFIG SET appendonly yes then CONFIG REWRITE); managed Redis: turn on AOF persistence.',
    pt: 'Defina appendonly yes no redis.conf (ou CONFIG SET appendonly yes e depois CONFIG REWRITE); Redis gerido: ative a persistência AOF.',
  }),
  'redis-eviction-unknown-fix': fixed({
    en: 'Make sure maxmemory-policy is noeviction (managed Redis: its parameter group or console).',
    pt: 'Confirme que maxmemory-policy é noeviction (Redis gerido: o seu grupo de parâmetros ou consola).',
  }),
  'redis-evicts': words(
    { policy: S },
    {
      en: (p) => `maxmemory-policy ${p.policy}: when memory is full Redis deletes keys, jobs and ledger entries among them (BullMQ requires noeviction)`,
      pt: (p) => `maxmemory-policy ${p.policy}: com a memória cheia, o Redis apaga chaves, entre elas tarefas e entradas do registo (o BullMQ exige noeviction)`,
    },
  ),
  'redis-evicts-fix': fixed({
    en: 'Set maxmemory-policy noeviction in redis.conf (or CONFIG SET maxmemory-policy noeviction then CONFIG REWRITE); managed Redis: its parameter group.',
    pt: 'Defina maxmemory-policy noeviction no redis.conf (ou CONFIG SET maxmemory-policy noeviction e depois CONFIG REWRITE); Redis gerido: o seu grupo de parâmetros.',
  }),

  // VIES (vies-check.ts).
  'vies-name': fixed({ en: 'VIES answers', pt: 'O VIES responde' }),
  'vies-answers': words({ nif: S, url: S }, { en: (p) => `asked about PT${p.nif} at ${p.url}: it answered`, pt: (p) => `perguntado sobre PT${p.nif} em ${p.url}: respondeu` }),
  'vies-silent': words(
    { nif: S, url: S, why: S },
    { en: (p) => `no answer about PT${p.nif} at ${p.url} («${p.why}»)`, pt: (p) => `sem resposta sobre PT${p.nif} em ${p.url} («${p.why}»)` },
  ),
  'vies-silent-wait-fix': fixed({
    en: 'While VIES does not answer, invoices of EU businesses wait (vies.whenUnavailable: wait) and the console lists each with this reason. Check vies.url and that this machine reaches it; or set vies.whenUnavailable to "format-check" (the VAT number is then checked by its format only, and the order says so).',
    pt: 'Enquanto o VIES não responder, as faturas de empresas da UE esperam (vies.whenUnavailable: wait) e a consola mostra cada uma com este motivo. Verifique vies.url e se esta máquina lhe chega; ou defina vies.whenUnavailable como "format-check" (o número de IVA é então verificado só pelo formato, e a encomenda di-lo).',
  }),
  'vies-silent-format-fix': fixed({
    en: 'While VIES does not answer, EU VAT numbers are checked by their format only (vies.whenUnavailable: format-check), and each order says so. Check vies.url and that this machine reaches it.',
    pt: 'Enquanto o VIES não responder, os números de IVA da UE são verificados só pelo formato (vies.whenUnavailable: format-check), e cada encomenda di-lo. Verifique vies.url e se esta máquina lhe chega.',
  }),

  // The MagniFinance credentials and the partner token.
  'credentials-name': fixed({ en: 'MagniFinance credentials', pt: 'Credenciais MagniFinance' }),
  'partner-token-name': fixed({ en: 'MagniFinance partner token', pt: 'Token de parceiro MagniFinance' }),
  'on-behalf': words({ email: S }, { en: (p) => `accepted for ${p.email} on behalf of the partner company`, pt: (p) => `aceite para ${p.email} em nome da empresa parceira` }),
  'credentials-accepted': words({ email: S, baseUrl: S }, { en: (p) => `accepted for ${p.email} at ${p.baseUrl}`, pt: (p) => `aceites para ${p.email} em ${p.baseUrl}` }),
  'partner-token-refused': words(
    { email: S, error: S },
    { en: (p) => `MagniFinance refused the partner token with ${p.email}: ${p.error}`, pt: (p) => `A MagniFinance recusou o token de parceiro com ${p.email} (AuthenticationError)` },
  ),
  'partner-token-refused-fix': fixed({
    en: 'Run "magnifinance partner tokens --tax-id <the company\'s NIF>" with your partner account and put its token in invoicing.partnerToken; the company must have approved the partnership.',
    pt: 'Corra "magnifinance partner tokens --tax-id <NIF da empresa>" com a sua conta de parceiro e ponha esse token em invoicing.partnerToken; a empresa tem de ter aprovado a parceria.',
  }),
  'credentials-refused': words({ error: S }, { en: (p) => `MagniFinance refused the e-mail or token: ${p.error}`, pt: () => 'A MagniFinance recusou o e-mail ou o token (AuthenticationError)' }),
  'credentials-refused-fix': fixed({
    en: "Check invoicing.email (the API user's e-mail) and invoicing.token (the subscription's own API token, as MagniFinance gave it) and that the subscription is active.",
    pt: 'Verifique invoicing.email (o e-mail do utilizador da API) e invoicing.token (o token da API da subscrição, tal como a MagniFinance o deu) e se a subscrição está ativa.',
  }),
  'service-silent': words(
    { baseUrl: S, error: S, timedOut: z.boolean(), code: OPT },
    {
      en: (p) => `no answer from ${p.baseUrl}: ${p.error}`,
      pt: (p) => `${p.baseUrl} não respondeu (${p.timedOut ? 'tempo esgotado' : (p.code ?? 'sem ligação')})`,
    },
  ),
  'service-silent-fix': fixed({
    en: 'Check invoicing.baseUrl (https://bo.magnifinance.com/api/v1.1) and that this machine reaches it.',
    pt: 'Verifique invoicing.baseUrl (https://bo.magnifinance.com/api/v1.1) e se esta máquina lhe chega.',
  }),
  'service-unexpected': words({ error: S }, { en: (p) => `unexpected answer: ${p.error}`, pt: (p) => `resposta inesperada: «${p.error}»` }),
  'service-unexpected-fix': fixed({
    en: 'Run the doctor again; if it persists, check the service status with MagniFinance.',
    pt: 'Volte a correr o doctor; se continuar, confirme com a MagniFinance o estado do serviço.',
  }),

  // The art. 53 regime's limit (regime-check.ts).
  'regime-name': fixed({ en: 'art. 53 regime limit', pt: 'Limite do regime do art. 53.º' }),
  'regime-left': words({ day: S }, { en: (p) => `the shop left the regime on ${calendarDay('en', p.day)} (exemptions.regimeUntil)`, pt: (p) => `a loja saiu do regime em ${calendarDay('pt', p.day)} (exemptions.regimeUntil)` }),
  'regime-no-redis': fixed({ en: 'Redis is not reachable', pt: 'o Redis não está acessível' }),
  'regime-unreadable-fix': fixed({ en: 'Make Redis reachable and run the doctor again.', pt: 'Torne o Redis acessível e volte a correr o diagnóstico.' }),
  'regime-turnover': words(
    { year: N, total: S, exit: S },
    {
      en: (p) =>
        `the ${p.year} M10 documents issued by the connector come to ${money('en', p.total, 'EUR')} / ${money('en', p.exit, 'EUR')} (CIVA art. 53, DL 35/2025: past ${money('en', p.exit, 'EUR')} the shop leaves the regime at once)`,
      pt: (p) =>
        `os documentos M10 de ${p.year} emitidos pelo conector somam ${money('pt', p.total, 'EUR')} / ${money('pt', p.exit, 'EUR')} (art. 53.º do CIVA, DL 35/2025: acima de ${money('pt', p.exit, 'EUR')} a loja sai de imediato do regime)`,
    },
  ),
  'regime-near-fix': fixed({
    en: `Plan the change with your accountant: an M10 invoice that would pass ${money('en', REGIME_53.exit, 'EUR')} is held; from the day the shop leaves the regime set exemptions.regimeUntil and tax the products in the shop.`,
    pt: `Prepare a mudança com o seu contabilista: uma fatura M10 que ultrapasse ${money('pt', REGIME_53.exit, 'EUR')} fica retida; a partir do dia em que a loja sai do regime, defina exemptions.regimeUntil e aplique o imposto aos produtos na loja.`,
  }),

  // The month's e-mail to the accountant (month/accountant-mail-check.ts).
  'mail-no-redis': fixed({ en: 'could not check: Redis did not answer', pt: 'não foi possível verificar: o Redis não respondeu' }),
  'mail-no-redis-fix': fixed({ en: 'start Redis and run the doctor again', pt: 'arranque o Redis e volte a correr o doctor' }),
  'mail-month': words({ month: S, line: S }, { en: (p) => `${p.month}: ${p.line}`, pt: (p) => `${p.month}: ${p.line}` }),
  'mail-no-worker-fix': fixed({ en: 'no worker sent it yet: check a connector worker is running (it sends within a minute)', pt: 'nenhum worker o enviou ainda: confirme que um worker do conector está a correr (envia-o num minuto)' }),
  'see-above': fixed({ en: 'see above', pt: 'veja acima' }),

  // Which company the tenant invoices for (config/company-check.ts).
  'company-name': fixed({ en: 'company', pt: 'Empresa' }),
  'company-ok': words(
    { company: S },
    { en: (p) => `${p.company}: the partner token is one of this company's (Get Partner Access Tokens)`, pt: (p) => `${p.company}: o token de parceiro é um dos desta empresa (Get Partner Access Tokens)` },
  ),
  'company-as-configured': words(
    { company: S },
    { en: (p) => `${p.company} as configured (an account's own token acts for its own company)`, pt: (p) => `${p.company}, como configurado (o token próprio de uma conta age pela sua própria empresa)` },
  ),
  'company-unset': fixed({ en: 'not set', pt: 'não indicada' }),
  'company-unset-fix': fixed({
    en: 'Set invoicing.companyNif to the NIF of the company this tenant invoices for: the doctor and the console show it.',
    pt: 'Indique em invoicing.companyNif o NIF da empresa pela qual esta loja fatura: o doctor e a consola mostram-no.',
  }),
  'company-unknown': words(
    { nif: S, why: S },
    { en: (p) => `could not check that the partner token is company ${p.nif}'s: ${p.why}`, pt: (p) => `não foi possível verificar que o token de parceiro é da empresa ${p.nif} (resposta: «${p.why}»)` },
  ),
  'company-unknown-fix': fixed({
    en: 'Run the doctor again; the connector checks again before the first document and issues nothing until it can.',
    pt: 'Volte a correr o doctor; o conector verifica de novo antes do primeiro documento e não emite nada até o conseguir.',
  }),
  'company-wrong': words(
    { company: S, why: S, actual: OPT, actualTenant: OPT, actualPartner: OPT },
    {
      en: (p) => `the tenant invoices for company ${p.company}, but ${p.why}${holder.en(p)}: documents would be issued in another company's name`,
      pt: (p) => `a loja fatura pela empresa ${p.company}, mas o token não é dela (verificação: «${p.why}»)${holder.pt(p)}: os documentos seriam emitidos em nome de outra empresa`,
    },
  ),
  'company-wrong-fix': words(
    { nif: S },
    {
      en: (p) => `Run "magnifinance partner tokens --tax-id ${p.nif}" and put that token in invoicing.partnerToken (or correct invoicing.companyNif). The connector refuses to issue for this tenant until they match.`,
      pt: (p) => `Corra "magnifinance partner tokens --tax-id ${p.nif}" e ponha esse token em invoicing.partnerToken (ou corrija invoicing.companyNif). O conector não emite nada para esta loja enquanto não coincidirem.`,
    },
  ),
});

/** A doctor's entry worded in every language (a check keeps both); parts given per language are taken in each. */
export const doctorSays = inEveryLang(DOCTOR);

/** A part that may itself be worded per language (a shop call's problem, a check's detail). */
export type { Part } from '../../messages/catalogue';
