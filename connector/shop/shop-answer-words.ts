import type { Lang, PerLang } from '../../messages/lang';
import { shopDateTime } from '../../messages/dates';
import { TimeoutError } from '../core/timeout';
import { silenceOf, troubleOf, type ShopAnswer, type ShopSilence, type ShopTrouble } from './shop-answer';

/**
 * Why a shop does not answer, in the reader's words and by its cause: a time-out is not a refused
 * connection, nor a wrong key, nor the connector's own Redis (which has its own page). One catalogue
 * for every page that calls the shop.
 */

const SECONDS = (ms: number, lang: Lang): string => `${new Intl.NumberFormat(lang === 'pt' ? 'pt-PT' : 'en-GB', { maximumFractionDigits: 1 }).format(ms / 1000)} s`;

const SILENCE: Record<ShopSilence, PerLang<(p: { timeoutMs: number; lang: Lang }) => string>> = {
  timeout: {
    pt: (p) => `a loja não respondeu dentro de ${SECONDS(p.timeoutMs, p.lang)} (shop.timeoutMs): o servidor da loja está lento ou parado`,
    en: (p) => `the shop did not answer within ${SECONDS(p.timeoutMs, p.lang)} (shop.timeoutMs): the shop's server is slow or stopped`,
  },
  'connection-refused': {
    pt: () => 'a ligação à loja foi recusada: o servidor da loja está em baixo, ou o endereço ou a porta de shop.url estão errados',
    en: () => "the connection to the shop was refused: the shop's server is down, or the address or port in shop.url is wrong",
  },
  'unknown-host': {
    pt: () => 'o nome do servidor de shop.url não existe (DNS): verifique o endereço da loja',
    en: () => "the host name in shop.url does not exist (DNS): check the shop's address",
  },
  certificate: {
    pt: () => 'o certificado HTTPS da loja não é válido (expirado ou de outro nome): renove-o, ou indique a autoridade em shop.tlsCaFile',
    en: () => "the shop's HTTPS certificate is not valid (expired or for another name): renew it, or name its authority in shop.tlsCaFile",
  },
  network: {
    pt: () => 'a rede entre o conector e a loja falhou',
    en: () => 'the network between the connector and the shop failed',
  },
};

/** A trouble in the reader's words. */
export function troubleWords(lang: Lang, trouble: ShopTrouble, timeoutMs: number): string {
  if (trouble.kind === 'silent') return SILENCE[trouble.cause][lang]({ timeoutMs, lang });
  return lang === 'pt'
    ? `a loja recusou a chave REST do conector (${trouble.status} ${trouble.code}): verifique shop.consumerKey e shop.consumerSecret (uma chave de leitura e escrita)`
    : `the shop refused the connector's REST key (${trouble.status} ${trouble.code}): check shop.consumerKey and shop.consumerSecret (a Read/Write key)`;
}

/** "Does not answer since 19:02: <why>" for a shop last seen not answering; undefined while it answers (or was never asked). */
export function shopAnswerWords(lang: Lang, answer: ShopAnswer | null, timeoutMs: number, timeZone: string): string | undefined {
  if (!answer || answer.answering || !answer.trouble) return undefined;
  const since = shopDateTime(lang, answer.since ?? answer.at, timeZone);
  const head = answer.trouble.kind === 'refused' ? (lang === 'pt' ? `A loja recusa o conector desde ${since}` : `The shop refuses the connector since ${since}`) : lang === 'pt' ? `A loja não responde desde ${since}` : `The shop does not answer since ${since}`;
  return `${head}: ${troubleWords(lang, answer.trouble, timeoutMs)}.`;
}

/**
 * A shop call a console page made that failed, in the reader's words: the page's own wait (a page
 * never waits longer than `budgetMs` for the shop), a trouble of the shop, or the error as it came («…»).
 */
export function failedShopCallWords(lang: Lang, error: unknown, budgetMs: number, timeoutMs: number): string {
  if (error instanceof TimeoutError) {
    return lang === 'pt'
      ? `a loja não respondeu dentro de ${SECONDS(budgetMs, lang)}, o que esta página espera por ela: a loja está lenta; recarregue a página daqui a pouco`
      : `the shop did not answer within ${SECONDS(budgetMs, lang)}, as long as this page waits for it: the shop is slow; reload the page in a while`;
  }
  const trouble = troubleOf(error);
  if (trouble) return troubleWords(lang, trouble, timeoutMs);
  return `«${error instanceof Error ? error.message : String(error)}»`;
}

const VIES_WAIT = /^the EU VAT registry \(VIES\) could not confirm VAT number (\S+): (.*)$/s;

/**
 * Why an order waits for a new attempt, from the last failed attempt's error (the ledger's
 * lastError): the outside world it waits on, named (VIES, the shop, the invoicing service), and that
 * the connector tries again by itself.
 */
export function waitingReasonWords(lang: Lang, lastError: string, timeoutMs: number): string {
  const vies = VIES_WAIT.exec(lastError);
  if (vies) {
    return lang === 'pt'
      ? `à espera do VIES (o registo europeu de números de IVA), que ainda não confirmou o número ${vies[1]} («${vies[2]}»); o conector tenta de novo sozinho`
      : `waiting for VIES (the EU's VAT number registry), which has not yet confirmed ${vies[1]} («${vies[2]}»); the connector tries again by itself`;
  }
  if (/^shop unreachable: /.test(lastError)) {
    const code = /\b(E[A-Z_]+|UND_ERR_[A-Z_]+)\b/.exec(lastError)?.[1];
    const cause = code ? silenceOf(code) : /timeout/i.test(lastError) ? 'timeout' : 'network';
    return `${troubleWords(lang, { kind: 'silent', cause }, timeoutMs)}; ${lang === 'pt' ? 'o conector tenta de novo sozinho' : 'the connector tries again by itself'}`;
  }
  if (/^MagniFinance /.test(lastError) || /magnifinance/i.test(lastError)) {
    return lang === 'pt'
      ? `a MagniFinance não aceitou ou não respondeu ao pedido («${lastError.slice(0, 200)}»); o conector tenta de novo sozinho`
      : `MagniFinance did not accept or did not answer the request («${lastError.slice(0, 200)}»); the connector tries again by itself`;
  }
  return lang === 'pt' ? `a última tentativa falhou («${lastError.slice(0, 200)}»); o conector tenta de novo sozinho` : `the last attempt failed («${lastError.slice(0, 200)}»); the connector tries again by itself`;
}
