import type { RedisClient } from '../core/redis-connection';
import { ShopRequestError } from './shop';

/**
 * Whether a shop answers, as the connector last saw it (the webhook watch every minute, each sweep,
 * the console's own calls), kept per tenant in Redis so every page says at once that a shop does not
 * answer, since when and why, instead of showing it as healthy with "checked: never".
 */

/** Why a call to the shop got no answer: the cause a person can act on. */
export const SHOP_SILENCES = ['timeout', 'connection-refused', 'unknown-host', 'certificate', 'network'] as const;
export type ShopSilence = (typeof SHOP_SILENCES)[number];

/** The shop answered with an error a person must fix on the shop (keys, permissions), or did not answer. */
export type ShopTrouble = { kind: 'silent'; cause: ShopSilence } | { kind: 'refused'; status: number; code: string };

export interface ShopAnswer {
  /** The last call's outcome. */
  answering: boolean;
  /** When the last call was made. */
  at: number;
  /** While not answering: since the first call that failed. */
  since?: number;
  trouble?: ShopTrouble;
  detail?: string;
}

/** The network codes behind "no answer" (axios / Node): the cause, worded by the catalogue. */
export function silenceOf(code: string): ShopSilence {
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') return 'timeout';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return 'connection-refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown-host';
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return 'certificate';
  return 'network';
}

/** What a failed shop call says about the shop: no answer (with its cause), or an answer that refuses the connector. */
export function troubleOf(error: unknown): ShopTrouble | undefined {
  if (!(error instanceof ShopRequestError)) return undefined;
  if (error.status === 0) return { kind: 'silent', cause: silenceOf(error.code) };
  if (error.status === 401 || error.status === 403) return { kind: 'refused', status: error.status, code: error.code };
  // Other answers (404 of one order, 400 of a listing, 5xx of one call) are the shop answering.
  return undefined;
}

export function shopAnswerKey(prefix: string, tenant: string): string {
  return `${prefix}:shop-answer:${tenant}`;
}

/** Records one call's outcome: `error` undefined for a call the shop answered. */
export async function recordShopAnswer(redis: RedisClient, prefix: string, tenant: string, error: unknown, now: number): Promise<void> {
  const key = shopAnswerKey(prefix, tenant);
  const trouble = error === undefined ? undefined : troubleOf(error);
  if (error !== undefined && trouble === undefined) return;
  if (!trouble) {
    await redis.set(key, JSON.stringify({ answering: true, at: now } satisfies ShopAnswer));
    return;
  }
  const before = await readShopAnswer(redis, prefix, tenant);
  const since = before && !before.answering ? (before.since ?? before.at) : now;
  await redis.set(key, JSON.stringify({ answering: false, at: now, since, trouble, detail: (error as Error).message.slice(0, 300) } satisfies ShopAnswer));
}

export async function readShopAnswer(redis: RedisClient, prefix: string, tenant: string): Promise<ShopAnswer | null> {
  const text = await redis.get(shopAnswerKey(prefix, tenant));
  if (!text) return null;
  try {
    return JSON.parse(text) as ShopAnswer;
  } catch {
    return null;
  }
}
