import { z } from 'zod';
import { catalogue, words } from '../../messages/catalogue';
import { localeOf, type Lang, type PerLang } from '../../messages/lang';
import { shopDateTime } from '../../messages/dates';
import { TimeoutError } from '../core/timeout';
import { troubleOf, type ShopAnswer, type ShopSilence, type ShopTrouble } from './shop-answer';

/**
 * Why a shop does not answer, in the reader's words and by its cause: a time-out is not a refused
 * connection, nor a wrong key, nor the connector's own Redis (which has its own page). One catalogue
 * for every page that calls the shop.
 */

const SECONDS = (ms: number, lang: Lang): string => `${new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 1 }).format(ms / 1000)} s`;

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

const SHOP_WORDS = catalogue({
  'key-refused': words(
    { status: z.number(), code: z.string() },
    {
      pt: (p) => `a loja recusou a chave REST do conector (${p.status} ${p.code}): verifique shop.consumerKey e shop.consumerSecret (uma chave de leitura e escrita)`,
      en: (p) => `the shop refused the connector's REST key (${p.status} ${p.code}): check shop.consumerKey and shop.consumerSecret (a Read/Write key)`,
    },
  ),
  'refuses-since': words({ since: z.string() }, { pt: (p) => `A loja recusa o conector desde ${p.since}`, en: (p) => `The shop refuses the connector since ${p.since}` }),
  'silent-since': words({ since: z.string() }, { pt: (p) => `A loja não responde desde ${p.since}`, en: (p) => `The shop does not answer since ${p.since}` }),
  'page-wait': words(
    { seconds: z.string() },
    {
      pt: (p) => `a loja não respondeu dentro de ${p.seconds}, o que esta página espera por ela: a loja está lenta; recarregue a página daqui a pouco`,
      en: (p) => `the shop did not answer within ${p.seconds}, as long as this page waits for it: the shop is slow; reload the page in a while`,
    },
  ),
});

/**
 * The shop platform's own words for a shop that refuses the connector's credentials (401/403), with
 * its fix (ShopPlatform.refusedWords): a Shopify store's token is not a WooCommerce REST key.
 */
export type RefusedWords = (lang: Lang) => string | undefined;

/** A trouble in the reader's words. */
export function troubleWords(lang: Lang, trouble: ShopTrouble, timeoutMs: number, refused?: RefusedWords): string {
  if (trouble.kind === 'silent') return SILENCE[trouble.cause][lang]({ timeoutMs, lang });
  return refused?.(lang) ?? SHOP_WORDS.say(lang, 'key-refused', { status: trouble.status, code: trouble.code });
}

/** "Does not answer since 19:02: <why>" for a shop last seen not answering; undefined while it answers (or was never asked). */
export function shopAnswerWords(lang: Lang, answer: ShopAnswer | null, timeoutMs: number, timeZone: string, refused?: RefusedWords): string | undefined {
  if (!answer || answer.answering || !answer.trouble) return undefined;
  const since = shopDateTime(lang, answer.since ?? answer.at, timeZone);
  const head = SHOP_WORDS.say(lang, answer.trouble.kind === 'refused' ? 'refuses-since' : 'silent-since', { since });
  return `${head}: ${troubleWords(lang, answer.trouble, timeoutMs, refused)}.`;
}

/**
 * A shop call a console page made that failed, in the reader's words: the page's own wait (a page
 * never waits longer than `budgetMs` for the shop), a trouble of the shop, or the error as it came («…»).
 */
export function failedShopCallWords(lang: Lang, error: unknown, budgetMs: number, timeoutMs: number, refused?: RefusedWords): string {
  if (error instanceof TimeoutError) {
    return SHOP_WORDS.say(lang, 'page-wait', { seconds: SECONDS(budgetMs, lang) });
  }
  const trouble = troubleOf(error);
  if (trouble) return troubleWords(lang, trouble, timeoutMs, refused);
  return `«${error instanceof Error ? error.message : String(error)}»`;
}
