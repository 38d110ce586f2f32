import { z } from 'zod';
import type { Lang, PerLang } from '../../messages/lang';
import { countOf, type CountWords } from '../../messages/plural';
import { catalogue, fixed, words, type ParamsOf } from '../../messages/catalogue';

/**
 * What a person reads when the tenants file (or its .env) is refused: codes with parameters, worded
 * in European Portuguese and English from this one catalogue (the pattern of the mapping's
 * `mappingText`). Read by whoever starts the connector, runs the doctor or a backfill, or presses
 * "reload" in the console, in the language of the tenants (settings.language) or the one they chose.
 */

const S = z.string();
const OPT = z.string().optional();

/** Where the environment variables were looked for: the .env file read (if any) and the process's environment. */
const lookedIn = {
  en: (envFile: string | undefined) => (envFile ? `looked in ${envFile} and in the process's environment` : "looked in the process's environment; no .env file beside the tenants file, none given with --env-file"),
  pt: (envFile: string | undefined) => (envFile ? `procurada em ${envFile} e no ambiente do processo` : 'procurada no ambiente do processo; não há ficheiro .env junto do ficheiro dos tenants nem indicado com --env-file'),
};

/** Why a secret is easy to guess (secret-ref.ts secretWeakness). */
const WEAK_WHY: Record<Lang, Record<'repeated' | 'few-characters' | 'sequence' | 'common', string>> = {
  en: { repeated: 'the same characters repeated', 'few-characters': 'too few different characters', sequence: 'a run of the alphabet, the digits or a keyboard row', common: 'a common word with digits or signs around it' },
  pt: { repeated: 'os mesmos caracteres repetidos', 'few-characters': 'poucos caracteres diferentes', sequence: 'uma sequência do alfabeto, dos algarismos ou de uma fila do teclado', common: 'uma palavra comum com algarismos ou sinais à volta' },
};

/** Why a file could not be read, from the system's error code, in the reader's words (never the system's English). */
const FILE_CAUSE = z.enum(['not-found', 'no-permission', 'is-directory', 'other']);
type FileCause = z.infer<typeof FILE_CAUSE>;
const FILE_CAUSE_WORDS: Record<Lang, Record<Exclude<FileCause, 'other'>, string>> = {
  pt: { 'not-found': 'o ficheiro não existe', 'no-permission': 'sem permissão para o ler', 'is-directory': 'é uma pasta, não um ficheiro' },
  en: { 'not-found': 'the file does not exist', 'no-permission': 'no permission to read it', 'is-directory': 'it is a folder, not a file' },
};
const causeWords = (lang: Lang, p: { cause?: FileCause; reason: string }): string => (p.cause && p.cause !== 'other' ? FILE_CAUSE_WORDS[lang][p.cause] : p.reason);

/** A file error's cause, from its system code (ENOENT, EACCES, EISDIR), for the words above. */
export function fileCause(error: unknown): { cause: FileCause; reason: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const cause: FileCause = code === 'ENOENT' ? 'not-found' : code === 'EACCES' || code === 'EPERM' ? 'no-permission' : code === 'EISDIR' ? 'is-directory' : 'other';
  return { cause, reason: error instanceof Error ? error.message : String(error) };
}

const CATALOGUE = {
  'env-missing': words(
    { name: S, envFile: OPT },
    {
      en: (p) => `the environment variable ${p.name} is not set (${lookedIn.en(p.envFile)}): add ${p.name}=… to the .env file`,
      pt: (p) => `a variável de ambiente ${p.name} não está definida (${lookedIn.pt(p.envFile)}): acrescente ${p.name}=… ao ficheiro .env`,
    },
  ),
  'env-file-unreadable': words(
    { file: S, reason: S, cause: FILE_CAUSE.optional() },
    { en: (p) => `cannot read the .env file ${p.file}: ${causeWords('en', p)}`, pt: (p) => `não foi possível ler o ficheiro .env ${p.file}: ${causeWords('pt', p)}` },
  ),
  'file-unreadable': words(
    { file: S, reason: S, cause: FILE_CAUSE.optional() },
    { en: (p) => `cannot read the file ${p.file}: ${causeWords('en', p)}`, pt: (p) => `não foi possível ler o ficheiro ${p.file}: ${causeWords('pt', p)}` },
  ),
  'not-parseable': words({ format: S, reason: S }, { en: (p) => `not valid ${p.format}: ${p.reason}`, pt: (p) => `não é ${p.format} válido: ${p.reason}` }),
  'example-value': fixed({
    en: 'is an example value (from connector/env.example or a common stand-in): set a secret of your own',
    pt: 'é um valor de exemplo (de connector/env.example ou um valor habitual de substituição): defina um segredo seu',
  }),
  'too-short': words(
    { length: z.number(), min: z.number(), hint: OPT },
    {
      en: (p) => `is too short (${p.length} characters): use at least ${p.min}${p.hint ? `, e.g. ${p.hint}` : ''}`,
      pt: (p) => `é curto demais (${p.length} caracteres): use pelo menos ${p.min}${p.hint ? `, por exemplo ${p.hint}` : ''}`,
    },
  ),
  weak: words(
    { why: z.enum(['repeated', 'few-characters', 'sequence', 'common']), hint: OPT },
    {
      en: (p) => `is easy to guess (${WEAK_WHY.en[p.why]}): choose a long random value${p.hint ? `, e.g. ${p.hint}` : ''}`,
      pt: (p) => `é fácil de adivinhar (${WEAK_WHY.pt[p.why]}): escolha um valor longo e aleatório${p.hint ? `, por exemplo ${p.hint}` : ''}`,
    },
  ),
  // The schema's own rules (tenant-config.ts, alert-settings.ts, shopify-tenant.ts): their messages are these codes (configIssue).
  'company-nif-format': fixed({ en: 'a Portuguese NIF (9 digits with a valid check digit)', pt: 'um NIF português (9 algarismos com o dígito de controlo certo)' }),
  'company-nif-required': fixed({
    en: "is required with a partnerToken: the NIF of the company this tenant invoices for (the connector checks the token is that company's before issuing)",
    pt: 'é obrigatório com um partnerToken: o NIF da empresa para a qual esta loja fatura (o conector verifica, antes de emitir, que o token é dessa empresa)',
  }),
  'partner-password-required': fixed({
    en: "is required with a partnerToken: Get Partner Access Tokens (the check that the token is companyNif's) asks for the main API user's password; or set partnerTokensForm: spec",
    pt: 'é obrigatória com um partnerToken: o Get Partner Access Tokens (a verificação de que o token é do companyNif) pede a palavra-passe do utilizador principal da API; ou defina partnerTokensForm: spec',
  }),
  'go-live-format': fixed({ en: 'a date and time with its offset, such as 2026-12-01T00:00:00Z', pt: 'uma data e hora com o fuso, por exemplo 2026-12-01T00:00:00Z' }),
  'unpaid-completed-needs-trigger': fixed({
    en: 'invoiceUnpaidProcessingAt: completed needs completed in triggerStatuses (or such orders would never be invoiced)',
    pt: 'invoiceUnpaidProcessingAt: completed precisa de completed em triggerStatuses (senão essas encomendas nunca seriam faturadas)',
  }),
  'platform-block-required': words({ platform: S }, { en: (p) => `is required for platform ${p.platform}`, pt: (p) => `é obrigatório para a plataforma ${p.platform}` }),
  'platform-block-other': words(
    { platform: S },
    { en: (p) => `belongs to another platform (this tenant's platform is ${p.platform})`, pt: (p) => `é de outra plataforma (a plataforma desta loja é ${p.platform})` },
  ),
  'trust-proxy-entry': fixed({
    en: 'an IP address, a CIDR range (10.0.0.0/8) or loopback, linklocal, uniquelocal',
    pt: 'um endereço IP, uma gama CIDR (10.0.0.0/8) ou loopback, linklocal, uniquelocal',
  }),
  'redis-prefix-characters': fixed({ en: 'letters, digits, : _ - and one {hash-tag}', pt: 'letras, algarismos, : _ - e uma {hash-tag}' }),
  'redis-prefix-braces': fixed({ en: 'at most one {hash-tag}, not empty, braces balanced', pt: 'no máximo uma {hash-tag}, não vazia, com as chavetas equilibradas' }),
  'redis-cluster-prefix': words(
    { tag: S },
    {
      en: (p) => `on a Redis Cluster the prefix must be a hash tag such as {${p.tag}} so each script's keys share one slot`,
      pt: (p) => `num Redis Cluster o prefixo tem de ser uma hash tag, por exemplo {${p.tag}}, para as chaves de cada script ficarem no mesmo slot`,
    },
  ),
  'accountant-same-user': fixed({ en: 'must differ from admin.username', pt: 'tem de ser diferente de admin.username' }),
  'duplicate-partner-nif': words(
    { nif: S, first: z.number() },
    { en: (p) => `NIF ${p.nif} is already agency.partners.${p.first}'s: one entry per company`, pt: (p) => `o NIF ${p.nif} já é o de agency.partners.${p.first}: uma entrada por empresa` },
  ),
  'duplicate-tenant': words({ tenant: S }, { en: (p) => `duplicate tenant id ${p.tenant}`, pt: (p) => `id de loja repetido: ${p.tenant}` }),
  'real-service-finalize': words(
    { tenant: S, min: z.number() },
    {
      en: (p) => `tenant ${p.tenant} uses the real service, which needs at least ${p.min} ms before Get Document`,
      pt: (p) => `a loja ${p.tenant} usa o serviço real, que precisa de pelo menos ${p.min} ms antes do Get Document`,
    },
  ),
  'finalize-below-min': words(
    { min: z.number() },
    { en: (p) => `must be at least pipeline.minFinalizeDelayMs (${p.min} ms)`, pt: (p) => `tem de ser pelo menos pipeline.minFinalizeDelayMs (${p.min} ms)` },
  ),
  'accountant-needs-smtp': fixed({
    en: 'the e-mail to the accountant goes through the SMTP server of alerts.email: add alerts.email (smtp, from, to)',
    pt: 'o e-mail ao contabilista segue pelo servidor SMTP de alerts.email: acrescente alerts.email (smtp, from, to)',
  }),
  'alerts-channel': fixed({ en: 'name at least one channel: email or webhook', pt: 'indique pelo menos um canal: email ou webhook' }),
  'webhook-url-http': fixed({ en: 'must be an http(s) URL', pt: 'tem de ser um endereço http(s)' }),
  'shopify-token-or-client': fixed({
    en: 'needs accessToken (a token given here) or clientId (the store installs the app through the connector, docs/shopify.md)',
    pt: 'precisa de accessToken (um token indicado aqui) ou de clientId (a loja instala a app através do conector, docs/shopify.md)',
  }),
  'shared-partner-token': words(
    { tenant: S },
    {
      en: (p) => `the same partner token as tenant ${p.tenant}: a partner token acts for one company, so one of them would invoice in the other's name`,
      pt: (p) => `o mesmo token de parceiro da loja ${p.tenant}: um token de parceiro age por uma só empresa, por isso uma delas faturaria em nome da outra`,
    },
  ),
  'shared-account-prefix': words(
    { tenant: S, prefix: S },
    {
      en: (p) => `the same MagniFinance account and ExternalId prefix "${p.prefix}" as tenant ${p.tenant}: their orders' documents would share ExternalIds; give each tenant its own prefix`,
      pt: (p) => `a mesma conta MagniFinance e o mesmo prefixo de ExternalId "${p.prefix}" da loja ${p.tenant}: os documentos das encomendas de ambas partilhariam ExternalIds; dê a cada loja o seu prefixo`,
    },
  ),
};
const CONFIG = catalogue(CATALOGUE);

export type ConfigCode = keyof typeof CATALOGUE;
export type ConfigParams<C extends ConfigCode> = ParamsOf<(typeof CATALOGUE)[C]>;

/** One problem of the file: where (a path such as tenants.0.shop.url, '' for the whole file) and what, in both languages. */
export interface ConfigProblem {
  path: string;
  /** English. */
  message: string;
  pt: string;
}

/** A problem worded from the catalogue. */
export function configProblem<C extends ConfigCode>(path: string, code: C, params: ConfigParams<C>): ConfigProblem {
  const message = CONFIG.message(code, params);
  return { path, message: CONFIG.text('en', message), pt: CONFIG.text('pt', message) };
}

const ISSUE_PREFIX = 'config:';

/**
 * A schema rule's message as a code of this catalogue (with its facts as the issue's params), so a
 * refusal words it in the reader's language: `.refine(check, configIssue('alerts-channel'))`.
 */
export function configIssue<C extends ConfigCode>(code: C, ...params: ConfigParams<C> extends Record<string, never> ? [] : [ConfigParams<C>]): { message: string; params?: Record<string, unknown> } {
  return params[0] === undefined ? { message: `${ISSUE_PREFIX}${code}` } : { message: `${ISSUE_PREFIX}${code}`, params: params[0] };
}

/** A schema issue whose message is a code of this catalogue (configIssue), worded; undefined for zod's own. */
export function issueProblem(path: string, issue: { message: string; params?: Record<string, unknown> }): ConfigProblem | undefined {
  if (!issue.message.startsWith(ISSUE_PREFIX)) return undefined;
  const message = CONFIG.read({ code: issue.message.slice(ISSUE_PREFIX.length), params: issue.params ?? {} });
  return message ? { path, message: CONFIG.text('en', message), pt: CONFIG.text('pt', message) } : undefined;
}

const PROBLEMS: PerLang<CountWords> = { pt: { one: 'problema', other: 'problemas' }, en: { one: 'problem', other: 'problems' } };
const WHOLE_FILE: PerLang = { pt: '(ficheiro)', en: '(file)' };

/** The whole refusal, for a terminal or a page: "<file>: N problems" then one line per problem. */
export function configRefusalText(lang: Lang, source: string, problems: readonly ConfigProblem[]): string {
  const head = `${source}: ${countOf(lang, problems.length, PROBLEMS[lang])}`;
  return `${head}\n${problems.map((p) => `  - ${problemLine(lang, p)}`).join('\n')}`;
}

/** "path: what" in the reader's language. */
export function problemLine(lang: Lang, problem: ConfigProblem): string {
  return `${problem.path || WHOLE_FILE[lang]}: ${problemText(lang, problem)}`;
}

/** The problem's words in `lang`. */
export function problemText(lang: Lang, problem: ConfigProblem): string {
  return { pt: problem.pt, en: problem.message }[lang];
}
