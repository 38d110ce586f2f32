import { z } from 'zod';
import { ApiError, LocalValidationError, TransportNetworkError, TransportTimeoutError } from '../../client/errors';
import { ShopRequestError } from '../shop/shop';
import type { Lang, PerLang } from '../../messages/lang';
import { catalogue, words } from '../../messages/catalogue';

/**
 * What came back from a call to the invoicing service or the shop, as facts (codes, fields, the
 * service's own text), so a person reads it in their language: the known answers of the service
 * (its ErrorValue names and ValidationError types, ../shared/spec/invoicing-service-spec.md) are
 * worded here; an unknown one is quoted as the service's own words, never glued into a sentence.
 */
const Issue = z.object({
  /** ValidationError Type (DocumentIsADuplicate, InvalidTaxId, Required...). */
  type: z.string().max(100),
  /** The failing field as the service names it (TaxId, DocumentDetailDate, Document.Lines[2].TaxValue...). */
  field: z.string().max(200),
  element: z.union([z.number(), z.string()]).nullable().optional(),
  /** The service's own explanation, quoted when the type is unknown here. */
  detail: z.string().max(500).optional(),
});
export type AnswerIssue = z.infer<typeof Issue>;

export const AnswerSchema = z.discriminatedUnion('from', [
  /** The invoicing service answered with an error: its ErrorValue name, its validation errors, its text. */
  z.object({ from: z.literal('service'), status: z.number().optional(), name: z.string().max(100).optional(), issues: z.array(Issue).max(20).default([]), said: z.string().max(1000).optional() }),
  /** The connector's own check of a request against the service's rules refused it before sending. */
  z.object({ from: z.literal('local'), issues: z.array(Issue).max(20) }),
  /** The shop (WooCommerce's REST API) answered with an error. */
  z.object({ from: z.literal('shop'), status: z.number(), code: z.string().max(200).optional(), said: z.string().max(1000).optional() }),
  /** No answer in time. */
  z.object({ from: z.literal('timeout'), to: z.enum(['service', 'shop']).optional(), ms: z.number().optional() }),
  /** No connection (refused, reset, DNS); `to` when known. */
  z.object({ from: z.literal('network'), to: z.enum(['service', 'shop']).optional(), code: z.string().max(100).optional() }),
  /** Anything else: the connector's own error text (kept for support, quoted). */
  z.object({ from: z.literal('connector'), said: z.string().max(1000) }),
]);
export type Answer = z.infer<typeof AnswerSchema>;

/** The facts of an error, as `Answer`. */
export function answerOf(error: unknown): Answer {
  if (error instanceof ApiError) {
    const said = error.errorMessage ?? error.errorHumanReadable ?? undefined;
    return {
      from: 'service',
      status: error.status,
      name: error.errorValue?.Name,
      issues: error.validationErrors.slice(0, 20).map((v) => ({ type: v.Type, field: v.Field, element: v.ElementNumber, detail: v.Detail ? v.Detail.slice(0, 500) : undefined })),
      said: said ? said.slice(0, 1000) : undefined,
    };
  }
  if (error instanceof LocalValidationError) {
    return { from: 'local', issues: error.issues.slice(0, 20).map((issue) => ({ type: 'Local', field: issue.path, detail: issue.message.slice(0, 500) })) };
  }
  if (error instanceof TransportTimeoutError) return { from: 'timeout', to: 'service', ms: error.timeoutMs };
  if (error instanceof TransportNetworkError) return { from: 'network', to: 'service', code: error.code };
  if (error instanceof ShopRequestError) return { from: 'shop', status: error.status, code: error.code || undefined, said: error.message.slice(0, 1000) };
  const said = error instanceof Error ? error.message : String(error);
  const network = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE)\b/.exec(said);
  if (network) return { from: 'network', code: network[1] };
  return { from: 'connector', said: said.slice(0, 1000) };
}

/** The field a validation error names, as a reader knows it (the buyer's NIF, the document's date...). */
const FIELDS: Record<string, Record<Lang, string>> = {
  TaxId: { pt: 'o NIF do cliente', en: "the buyer's tax number" },
  CompanyTaxId: { pt: 'o NIF da empresa', en: "the company's tax number" },
  DocumentDetailDate: { pt: 'a data do documento', en: "the document's date" },
  DocumentDetailExternalId: { pt: 'o ExternalId do documento', en: "the document's ExternalId" },
  PostCode: { pt: 'o código postal', en: 'the post code' },
  DueDate: { pt: 'a data de vencimento', en: 'the due date' },
  CountryCode: { pt: 'o país', en: 'the country' },
  Email: { pt: 'o e-mail do cliente', en: "the buyer's e-mail" },
  Name: { pt: 'o nome do cliente', en: "the buyer's name" },
  TaxExemptionReasonCode: { pt: 'o motivo de isenção', en: 'the exemption reason' },
  CurrencyCode: { pt: 'a moeda', en: 'the currency' },
};

function fieldWords(lang: Lang, field: string): string {
  const last = field.split('.').pop()?.replace(/\[\d+\]$/, '') ?? field;
  const known = FIELDS[field]?.[lang] ?? FIELDS[last]?.[lang];
  if (known) return `${known} (${field})`;
  return ANSWER.say(lang, 'field', { field });
}

function lineOf(lang: Lang, issue: AnswerIssue): string {
  const element = issue.element === null || issue.element === undefined || issue.element === '' ? undefined : Number(issue.element);
  if (element === undefined || Number.isNaN(element) || !/Lines/.test(issue.field)) return '';
  return ANSWER.say(lang, 'of-line', { line: element + 1 });
}

/** Known ValidationError types, in words; `undefined` for one this connector does not know. */
const ISSUE_WORDS: Record<string, Record<Lang, (field: string, line: string) => string>> = {
  DocumentIsADuplicate: {
    pt: () => 'já existe um documento com o mesmo ExternalId para este cliente (DocumentIsADuplicate)',
    en: () => 'a document with the same ExternalId already exists for this buyer (DocumentIsADuplicate)',
  },
  InvalidTaxId: { pt: (f) => `${f} não é válido (InvalidTaxId)`, en: (f) => `${f} is not valid (InvalidTaxId)` },
  MustBePosteriorToMostCurrentClosedDocument: {
    pt: () => 'a série tem um documento fechado com data posterior à deste (MustBePosteriorToMostCurrentClosedDocument)',
    en: () => 'the series has a closed document dated after this one (MustBePosteriorToMostCurrentClosedDocument)',
  },
  Required: { pt: (f, l) => `falta ${f}${l} (Required)`, en: (f, l) => `${f}${l} is missing (Required)` },
  TooLong: { pt: (f, l) => `${f}${l} é demasiado longo (TooLong)`, en: (f, l) => `${f}${l} is too long (TooLong)` },
  InvalidFormat: { pt: (f, l) => `${f}${l} não tem o formato pedido (InvalidFormat)`, en: (f, l) => `${f}${l} is not in the expected format (InvalidFormat)` },
  InvalidDecimal: { pt: (f, l) => `${f}${l} não é um número decimal (InvalidDecimal)`, en: (f, l) => `${f}${l} is not a decimal number (InvalidDecimal)` },
  InvalidDate: { pt: (f, l) => `${f}${l} não é uma data (InvalidDate)`, en: (f, l) => `${f}${l} is not a date (InvalidDate)` },
  InvalidPercentage: { pt: (f, l) => `${f}${l} não é uma percentagem entre 0 e 100 (InvalidPercentage)`, en: (f, l) => `${f}${l} is not a percentage between 0 and 100 (InvalidPercentage)` },
  TypeInvalid: { pt: (f, l) => `${f}${l} tem um tipo que o serviço não aceita (TypeInvalid)`, en: (f, l) => `${f}${l} has a type the service does not accept (TypeInvalid)` },
  TaxExemptionReasonRequired: {
    pt: (_f, l) => `falta o motivo de isenção${l}, que tem IVA a 0 % (TaxExemptionReasonRequired)`,
    en: (_f, l) => `the exemption reason${l} is missing, and it has 0% VAT (TaxExemptionReasonRequired)`,
  },
  TaxExemptionDoesNotExist: { pt: (_f, l) => `o código de isenção${l} não existe (TaxExemptionDoesNotExist)`, en: (_f, l) => `the exemption code${l} does not exist (TaxExemptionDoesNotExist)` },
  CurrencyDoesNotExist: { pt: () => 'a moeda não existe no serviço (CurrencyDoesNotExist)', en: () => 'the currency does not exist on the service (CurrencyDoesNotExist)' },
  DocumentReferenceRequired: {
    pt: () => 'falta a referência à fatura que a nota corrige (DocumentReferenceRequired)',
    en: () => 'the reference to the invoice the note corrects is missing (DocumentReferenceRequired)',
  },
  DueDateMustBePosteriorToDate: {
    pt: () => 'a data de vencimento tem de ser posterior à data do documento (DueDateMustBePosteriorToDate)',
    en: () => "the due date must be after the document's date (DueDateMustBePosteriorToDate)",
  },
  LinesRequired: { pt: () => 'o documento não tem linhas (LinesRequired)', en: () => 'the document has no lines (LinesRequired)' },
  InvalidCountryCode: { pt: (f) => `${f} não é um código de país válido (InvalidCountryCode)`, en: (f) => `${f} is not a valid country code (InvalidCountryCode)` },
  InvalidPostCode: { pt: (f) => `${f} não é um código postal válido (InvalidPostCode)`, en: (f) => `${f} is not a valid post code (InvalidPostCode)` },
  SerieDataNotMatch: {
    pt: () => 'a série indicada não existe na conta para este tipo de documento (SerieDataNotMatch)',
    en: () => 'the series given does not exist on the account for this document type (SerieDataNotMatch)',
  },
  DocumentIsClosed: { pt: () => 'o documento já está fechado (DocumentIsClosed)', en: () => 'the document is already closed (DocumentIsClosed)' },
  DocumentIsNotClosed: { pt: () => 'o documento não está fechado (DocumentIsNotClosed)', en: () => 'the document is not closed (DocumentIsNotClosed)' },
  DocumentIsAlreadyCancelled: { pt: () => 'o documento já está anulado (DocumentIsAlreadyCancelled)', en: () => 'the document is already cancelled (DocumentIsAlreadyCancelled)' },
};

/** Known ErrorValue names without validation errors. */
const NAME_WORDS: Record<string, Record<Lang, string>> = {
  AuthenticationError: { pt: 'o e-mail e o token não foram aceites (AuthenticationError)', en: 'the e-mail and token were refused (AuthenticationError)' },
  ElementDoesNotExist: { pt: 'o documento não existe nesta conta (ElementDoesNotExist)', en: 'the document does not exist on this account (ElementDoesNotExist)' },
  GeneralUnknownError: { pt: 'teve um erro interno (GeneralUnknownError)', en: 'had an internal error (GeneralUnknownError)' },
  PartnershipNotFound: { pt: 'não encontrou a parceria com a empresa (PartnershipNotFound)', en: 'found no partnership with the company (PartnershipNotFound)' },
  InvalidTaxId: { pt: 'o NIF não é válido (InvalidTaxId)', en: 'the tax number is not valid (InvalidTaxId)' },
};

/** `«text»` (pt) or `"text"` (en): someone else's words, quoted as they came. */
function quote(lang: Lang, text: string): string {
  return ANSWER.say(lang, 'quoted', { text: text.replace(/[«»"]/g, "'").trim() });
}

function issueWords(lang: Lang, issue: AnswerIssue): string {
  const known = ISSUE_WORDS[issue.type]?.[lang];
  if (known) return known(fieldWords(lang, issue.field), lineOf(lang, issue));
  // Unknown here: the service's own words, quoted, with its codes.
  return ANSWER.say(lang, 'issue-unknown', { type: issue.type, field: issue.field, ...(issue.detail ? { detail: quote(lang, issue.detail) } : {}) });
}

/** Sentences joined as a list: "a; b; c". */
function list(parts: string[]): string {
  return parts.join('; ');
}

/**
 * What the service or the shop answered, as one or more full sentences in `lang` (each ends with a
 * full stop). Known codes in words; an unknown answer quoted as the service's own words.
 */
export function answerWords(lang: Lang, answer: Answer): string {
  switch (answer.from) {
    case 'service': {
      const issues = answer.issues.filter((issue) => issue.type);
      if (issues.length > 0) {
        const known = issues.filter((issue) => ISSUE_WORDS[issue.type]);
        const words = list(issues.map((issue) => issueWords(lang, issue)));
        // Every issue unknown here: the service's own words, labelled as such.
        return ANSWER.say(lang, known.length === 0 ? 'service-unknown-issues' : 'service-said', { words });
      }
      const name = answer.name ? NAME_WORDS[answer.name]?.[lang] : undefined;
      if (name) return ANSWER.say(lang, 'service-said', { words: name });
      const code = answer.name ?? `HTTP ${answer.status ?? '?'}`;
      if (answer.said && answer.said !== answer.name) return ANSWER.say(lang, 'service-coded', { code, said: quote(lang, answer.said) });
      return ANSWER.say(lang, 'service-error', { code });
    }
    case 'local': {
      const words = list(answer.issues.map((issue) => ANSWER.say(lang, 'local-issue', { field: fieldWords(lang, issue.field), ...(issue.detail ? { detail: issue.detail } : {}) })));
      return ANSWER.say(lang, 'local-refused', { words });
    }
    case 'shop': {
      if (answer.code === 'not_json') return ANSWER.say(lang, 'shop-not-json', { status: answer.status });
      // Shopify's Admin API says why in its own words (the scope it requires, the token it refused): never the REST key's.
      if (answer.code?.startsWith('shopify_') && answer.said) return ANSWER.say(lang, 'shopify-answered', { said: quote(lang, answer.said) });
      const meaning = SHOP_STATUS[answer.status]?.[lang];
      return ANSWER.say(lang, 'shop-answered', { status: answer.status, ...(answer.code ? { code: answer.code } : {}), ...(meaning ? { meaning } : {}) });
    }
    case 'timeout':
      return ANSWER.say(lang, 'timeout', { to: answer.to ?? 'either', ...(answer.ms ? { seconds: Math.round(answer.ms / 1000) } : {}) });
    case 'network':
      return ANSWER.say(lang, 'network', { to: answer.to ?? 'either', ...(answer.code ? { code: answer.code } : {}) });
    case 'connector':
      return ANSWER.say(lang, 'connector-said', { said: quote(lang, answer.said) });
  }
}


const SHOP_STATUS: Record<number, Record<Lang, string>> = {
  401: { pt: 'a chave da API REST não foi aceite', en: 'the REST API key was refused' },
  403: { pt: 'a chave da API REST não tem permissão para isto', en: 'the REST API key has no permission for this' },
  404: { pt: 'não encontrou o que o conector pediu', en: 'it did not find what the connector asked for' },
  429: { pt: 'demasiados pedidos', en: 'too many requests' },
  500: { pt: 'erro interno da loja', en: "the shop's internal error" },
  502: { pt: 'a loja não respondeu por trás do proxy', en: 'the shop did not answer behind its proxy' },
  503: { pt: 'a loja está indisponível', en: 'the shop is unavailable' },
};

/** Who did not answer (the subject of a sentence) and, in Portuguese, whom the connector could not reach ("à loja"). */
const WHO = { service: { pt: 'A MagniFinance', en: 'MagniFinance' }, shop: { pt: 'A loja', en: 'The shop' }, either: { pt: 'A MagniFinance ou a loja', en: 'MagniFinance or the shop' } } satisfies Record<string, PerLang>;
const TO: Record<keyof typeof WHO, PerLang> = { service: { pt: 'à MagniFinance', en: 'MagniFinance' }, shop: { pt: 'à loja', en: 'the shop' }, either: { pt: 'à MagniFinance ou à loja', en: 'MagniFinance or the shop' } };

const S = z.string();
const N = z.number();
const OPT = z.string().optional();
const WHOM = z.enum(['service', 'shop', 'either']);

/** The sentences around an answer's facts (the owner's notes, the console, the alerts): codes with typed parameters per language. */
const ANSWER = catalogue({
  field: words({ field: S }, { pt: (p) => `o campo ${p.field}`, en: (p) => `field ${p.field}` }),
  'of-line': words({ line: N }, { pt: (p) => ` da linha ${p.line}`, en: (p) => ` of line ${p.line}` }),
  quoted: words({ text: S }, { pt: (p) => `«${p.text}»`, en: (p) => `"${p.text}"` }),
  'issue-unknown': words({ type: S, field: S, detail: OPT }, { pt: (p) => `${p.type} em ${p.field}${p.detail ? ` ${p.detail}` : ''}`, en: (p) => `${p.type} on ${p.field}${p.detail ? ` ${p.detail}` : ''}` }),
  'service-unknown-issues': words(
    { words: S },
    { pt: (p) => `A MagniFinance respondeu com erros que o conector não conhece: ${p.words}.`, en: (p) => `MagniFinance answered with errors the connector does not know: ${p.words}.` },
  ),
  'service-said': words({ words: S }, { pt: (p) => `A MagniFinance respondeu que ${p.words}.`, en: (p) => `MagniFinance answered that ${p.words}.` }),
  'service-coded': words({ code: S, said: S }, { pt: (p) => `A MagniFinance respondeu (${p.code}): ${p.said}.`, en: (p) => `MagniFinance answered (${p.code}): ${p.said}.` }),
  'service-error': words({ code: S }, { pt: (p) => `A MagniFinance respondeu com o erro ${p.code}.`, en: (p) => `MagniFinance answered with error ${p.code}.` }),
  /** One field the connector's own check refused; the English keeps the check's detail (the Portuguese names the field only). */
  'local-issue': words({ field: S, detail: OPT }, { pt: (p) => p.field, en: (p) => `${p.field}${p.detail ? ` (${p.detail})` : ''}` }),
  'local-refused': words(
    { words: S },
    {
      pt: (p) => `O documento preparado não cumpre as regras da MagniFinance e não foi enviado; o conector recusou ${p.words}.`,
      en: (p) => `The document prepared does not meet MagniFinance's rules and was not sent; the connector refused ${p.words}.`,
    },
  ),
  'shopify-answered': words(
    { said: S },
    {
      pt: (p) => `A Admin API do Shopify recusou o pedido: ${p.said}.`,
      en: (p) => `Shopify's Admin API refused the request: ${p.said}.`,
    },
  ),
  'shop-not-json': words(
    { status: N },
    {
      pt: (p) => `A loja respondeu HTTP ${p.status} com uma página que não é o JSON do WooCommerce: uma firewall, um plugin de segurança ou de cache, ou uma página de manutenção respondeu no lugar da API REST.`,
      en: (p) => `The shop answered HTTP ${p.status} with a page that is not WooCommerce's JSON: a firewall, a security or caching plugin, or a maintenance page answered in place of the REST API.`,
    },
  ),
  'shop-answered': words(
    { status: N, code: OPT, meaning: OPT },
    {
      pt: (p) => `A loja respondeu HTTP ${p.status}${p.code ? `, ${p.code}` : ''}${p.meaning ? `: ${p.meaning}` : ''}.`,
      en: (p) => `The shop answered HTTP ${p.status}${p.code ? `, ${p.code}` : ''}${p.meaning ? `: ${p.meaning}` : ''}.`,
    },
  ),
  timeout: words(
    { to: WHOM, seconds: N.optional() },
    {
      pt: (p) => `${WHO[p.to].pt} não respondeu a tempo${p.seconds ? ` (${p.seconds} s)` : ''}.`,
      en: (p) => `${WHO[p.to].en} did not answer in time${p.seconds ? ` (${p.seconds} s)` : ''}.`,
    },
  ),
  network: words(
    { to: WHOM, code: OPT },
    { pt: (p) => `Não foi possível ligar ${TO[p.to].pt}${p.code ? ` (${p.code})` : ''}.`, en: (p) => `Could not connect to ${TO[p.to].en}${p.code ? ` (${p.code})` : ''}.` },
  ),
  'connector-said': words({ said: S }, { pt: (p) => `O conector deu um erro, nas suas palavras: ${p.said}.`, en: (p) => `The connector failed, in its own words: ${p.said}.` }),
});
