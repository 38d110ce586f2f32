import { z } from 'zod';
import { MagniFinanceError } from '../../client/errors';
import { catalogue, words } from '../../messages/catalogue';
import type { Lang } from '../../messages/lang';
import { ShopRequestError } from '../shop/shop';
import { SHOP_SILENCES, silenceOf } from '../shop/shop-answer';
import { troubleWords } from '../shop/shop-answer-words';
import { ViesUnavailableError } from '../vies/vies-registry';

/**
 * Why an order waits for a new attempt, as facts recorded with the failed attempt (the ledger's
 * `lastWait`, beside `lastError`'s text for the logs and the API): what in the outside world it
 * waits on (VIES, the shop, the invoicing service). Taken from the error itself, never read back
 * from its English text.
 */
export const AttemptWaitSchema = z.discriminatedUnion('on', [
  z.object({ on: z.literal('vies'), vatNumber: z.string().max(40), why: z.string().max(200) }),
  z.object({ on: z.literal('shop'), cause: z.enum(SHOP_SILENCES) }),
  z.object({ on: z.literal('magnifinance'), said: z.string().max(200) }),
  z.object({ on: z.literal('other'), said: z.string().max(200) }),
]);
export type AttemptWait = z.infer<typeof AttemptWaitSchema>;

/** What a failed attempt waits on, from the error it failed with. */
export function attemptWaitOf(error: unknown): AttemptWait {
  const said = (error instanceof Error ? error.message : String(error)).slice(0, 200);
  if (error instanceof ViesUnavailableError) return { on: 'vies', vatNumber: error.vatNumber.slice(0, 40), why: error.why.slice(0, 200) };
  if (error instanceof ShopRequestError && error.status === 0) return { on: 'shop', cause: silenceOf(error.code) };
  if (error instanceof MagniFinanceError) return { on: 'magnifinance', said };
  return { on: 'other', said };
}

/** The ledger fields of a failed attempt that will be tried again: its text and what it waits on. */
export function failedAttemptFields(error: unknown): { lastError: string; lastWait: string } {
  return { lastError: error instanceof Error ? error.message : String(error), lastWait: JSON.stringify(attemptWaitOf(error)) };
}

const S = z.string();

const WAITS = catalogue({
  vies: words(
    { vatNumber: S, why: S },
    {
      pt: (p) => `à espera do VIES (o registo europeu de números de IVA), que ainda não confirmou o número ${p.vatNumber} («${p.why}»); o conector tenta de novo sozinho`,
      en: (p) => `waiting for VIES (the EU's VAT number registry), which has not yet confirmed ${p.vatNumber} («${p.why}»); the connector tries again by itself`,
    },
  ),
  shop: words({ trouble: S }, { pt: (p) => `${p.trouble}; o conector tenta de novo sozinho`, en: (p) => `${p.trouble}; the connector tries again by itself` }),
  magnifinance: words(
    { said: S },
    {
      pt: (p) => `a MagniFinance não aceitou ou não respondeu ao pedido («${p.said}»); o conector tenta de novo sozinho`,
      en: (p) => `MagniFinance did not accept or did not answer the request («${p.said}»); the connector tries again by itself`,
    },
  ),
  other: words({ said: S }, { pt: (p) => `a última tentativa falhou («${p.said}»); o conector tenta de novo sozinho`, en: (p) => `the last attempt failed («${p.said}»); the connector tries again by itself` }),
});

/**
 * Why an order waits for a new attempt, in the reader's words: from the recorded facts
 * (`lastWait`); an attempt recorded before they were (only `lastError`) is quoted as it came.
 */
export function attemptWaitWords(lang: Lang, entry: { lastWait?: string; lastError?: string }, shopTimeoutMs: number): string {
  const wait = readWait(entry.lastWait);
  if (!wait) return WAITS.say(lang, 'other', { said: (entry.lastError ?? '').slice(0, 200) });
  switch (wait.on) {
    case 'vies':
      return WAITS.say(lang, 'vies', { vatNumber: wait.vatNumber, why: wait.why });
    case 'shop':
      return WAITS.say(lang, 'shop', { trouble: troubleWords(lang, { kind: 'silent', cause: wait.cause }, shopTimeoutMs) });
    case 'magnifinance':
      return WAITS.say(lang, 'magnifinance', { said: wait.said });
    case 'other':
      return WAITS.say(lang, 'other', { said: wait.said });
  }
}

function readWait(text: string | undefined): AttemptWait | undefined {
  if (!text) return undefined;
  try {
    const parsed = AttemptWaitSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
