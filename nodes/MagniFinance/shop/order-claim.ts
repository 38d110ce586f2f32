import { z } from 'zod';

import type { OrderMeta } from './woo-rest';

/**
 * The claim: what a run of the node puts on the order BEFORE it saves a document, so that every
 * other run (a second `order.updated` while this one waits, a redelivery, a retry after a crash)
 * sees the order taken, and the document's id as soon as it exists.
 *
 * The shop is the only store every run shares, and WooCommerce's REST API has no compare-and-set.
 * So each run adds its own meta key, `_magnifinance_claim_<purpose>_<run>` (a new key is always a
 * new database row; a run never overwrites another's claim), reads the order back, and the claim
 * in the lowest row (the database's auto-increment order) leads. Two runs that claim at the same
 * moment both read both claims back and agree on the same leader.
 *
 * A claim stops counting (`void`) only while it names no document: released by its run (the
 * order was held or refused), or past its lease (`until`: the run died between claiming and saving
 * its draft; a draft it may have saved has no legal effect). A claim naming a document never
 * stops counting: any run resumes that document by its id (closing a draft by id cannot make a
 * second document; a closed one answers DocumentIsClosed).
 *
 * A shop with compare-and-set (Shopify: metafieldsSet with `compareDigest`, see
 * ShopOrders.swapMeta) keeps one claim per purpose instead, `_magnifinance_claim_<purpose>_held`
 * (CAS_SLOT): a run places it only if the entry is absent (compareDigest null) or still the void
 * claim it read (its digest), and changes its own claim only while it is unchanged; the shop
 * refuses every other write (STALE_OBJECT). So exactly one run holds the order at a time, with no
 * ranking and no settling wait.
 */
export const CLAIM_PREFIX = '_magnifinance_claim_';
/** The run part of the one claim key of a shop with compare-and-set: `_magnifinance_claim_<purpose>_held`. */
export const CAS_SLOT = 'held';

export const ClaimSchema = z.object({
  /** The run that placed it (random, per item and run). */
  run: z.string().min(1),
  externalId: z.string(),
  /** ms since the epoch, by the clock of the n8n instance that claimed. */
  at: z.number(),
  /** The lease: past it, a claim without a document is void. */
  until: z.number(),
  /** The n8n execution that claimed, for a person reading the order's meta. */
  execution: z.string().optional(),
  /** The document (first a draft) this claim issues; set before it is closed. */
  documentId: z.number().int().positive().optional(),
  /** Set by its own run when it gave the order up before saving anything (held, refused). */
  released: z.string().optional(),
  /**
   * A waybill (no draft step on the service): when its one create was about to be sent, ms. From
   * then on the claim never stops counting: a run that died before it named the document leaves a
   * waybill that may exist, and a person decides (never a second create).
   */
  sending: z.number().optional(),
});
export type Claim = z.infer<typeof ClaimSchema>;

export interface PlacedClaim extends Claim {
  key: string;
  /** The meta row's id in the shop's database: the order in which claims were placed. */
  row: number;
  /** Its compare digest as read, in a shop with compare-and-set. */
  digest?: string;
}

/**
 * How long past its own `until` another run waits before it treats a claim without document as
 * void: the clocks of n8n's queue-mode workers differ a little.
 */
export const CLOCK_MARGIN_MS = 30_000;

export function claimKey(purpose: string, run: string): string {
  return `${CLAIM_PREFIX}${purpose}_${run}`;
}

function parsedValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The order's claims for a purpose, in the order they were placed (a value that is not a claim is ignored). */
export function claimsOf(meta: readonly OrderMeta[], purpose: string): PlacedClaim[] {
  const prefix = `${CLAIM_PREFIX}${purpose}_`;
  const claims: PlacedClaim[] = [];
  for (const entry of meta) {
    if (!entry.key.startsWith(prefix)) continue;
    const parsed = ClaimSchema.safeParse(parsedValue(entry.value));
    if (parsed.success) claims.push({ ...parsed.data, key: entry.key, row: entry.id, ...(entry.digest !== undefined ? { digest: entry.digest } : {}) });
  }
  return claims.sort((a, b) => a.row - b.row);
}

/** Whether a claim no longer holds the order: it names no document and was released or outlived its lease. */
export function isVoid(claim: Claim, now: number, margin: number): boolean {
  if (claim.documentId !== undefined) return false;
  if (claim.released !== undefined) return true;
  return claim.sending === undefined && now > claim.until + margin;
}

/** The claim that holds the order: the first placed that is not void. `run`'s own claim is judged without the margin (its lease is its own). */
export function leaderOf(claims: readonly PlacedClaim[], now: number, run: string): PlacedClaim | undefined {
  return claims.find((claim) => !isVoid(claim, now, claim.run === run ? 0 : CLOCK_MARGIN_MS));
}

export function claimValue(claim: Claim): string {
  return JSON.stringify(claim);
}
