import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-connection';
import { formatDecimal, fromCents } from '../../client/money';
import { z } from 'zod';

/**
 * The per-order ledger: one Redis hash per tenant + order + purpose. It is the connector's memory of
 * what it asked the invoicing service to do, written BEFORE each call that could lose its answer,
 * so no retry, restart or second delivery ever issues a second document for the same purpose.
 */
export const LEDGER_STATES = [
  'drafting', // a draft create was sent (or is about to be) under ExternalId <id>.d<draftAttempt>; its answer may be lost
  'draft', // the service answered with the draft's id (documentId); closing it by that id is safe to repeat
  'creating', // the create was sent (or is about to be); its answer may be lost (waybills; ledgers of older versions)
  'created', // the service answered with a document id
  'finalized', // Get Document returned the number and the PDF
  'written-back', // meta and note are on the order
  'duplicate-unknown-id', // a retried create came back DocumentIsADuplicate: issued once, id unknown
  'alert-no-number', // Get Document never returned a number within the bound
  'held', // the mapping asked to hold the order (nothing issued)
  'mapping-failed', // the order cannot be mapped, or the service refused it; nothing issued
  'failed', // gave up (credentials, shop refusal, attempts ran out) before anything was issued
  'skipped', // nothing to issue (e.g. no invoice to credit)
  'cancelled', // the invoice was cancelled on the service
  'dismissed', // a person handled it outside the connector (issued by hand, or no document is due): never issued here
] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];

function isLedgerState(value: unknown): value is LedgerState {
  return typeof value === 'string' && (LEDGER_STATES as readonly string[]).includes(value);
}

/** Where a run finds a purpose's progress: done, continue at a step, or `null` (evaluate the order again). */
export type ResumeFrom = { done: string } | { next: 'finalize' | 'writeback' } | null;

/** What is on the service for a purpose in a state. */
export type DocumentOnService =
  /** Nothing was issued (a failure there may name the state itself). */
  | 'none'
  /** A create or close may have been sent and its answer lost: a document may exist, unnamed yet. */
  | 'in-flight'
  /** A document exists; its number is not known here yet (or at all). */
  | 'unnumbered'
  /** A numbered document with its PDF. */
  | 'numbered'
  /** The invoice itself was cancelled on the service (the cancellation purpose, onCancelled: cancel). */
  | 'invoice-cancelled';

/** The questions asked of a ledger state: each state answers all of them in its row of LEDGER_STATE_RULES. */
export interface LedgerStateRules {
  /** Nothing more is to be done for the purpose: the sweep passes it by. */
  settled: boolean;
  /** Nothing more ever happens to it: its entry may expire (retention.finishedLedgerDays). */
  mayExpire: boolean;
  /** A person may mark it handled by hand (dismiss): nothing was issued and the connector waits for them. */
  dismissable: boolean;
  /** A credit note or cancellation cannot reference an invoice in this state until a person acts. */
  blocksCredit: boolean;
  document: DocumentOnService;
  /** What a person is asked to do before the connector goes on: attach a document id, release a hold, or fix a refusal. */
  waitsFor: 'attach' | 'release' | 'fix' | null;
  resumeFrom: ResumeFrom;
}

/** Every ledger state once, with the why of its answers: a new state is a type error here and nowhere else. */
export const LEDGER_STATE_RULES: Record<LedgerState, LedgerStateRules> = {
  // The draft create's answer may be lost: the next run creates the next draft (the old one has no legal effect).
  drafting: { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'in-flight', waitsFor: null, resumeFrom: null },
  // A draft with a known id: the next run closes it by that id, which is safe to repeat.
  draft: { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'in-flight', waitsFor: null, resumeFrom: null },
  // The create's answer may be lost: the next run creates again under the same ExternalId, and the service answers a duplicate.
  creating: { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'in-flight', waitsFor: null, resumeFrom: null },
  // Issued; the number and PDF come from Get Document after the service's 10 s.
  created: { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'unnumbered', waitsFor: null, resumeFrom: { next: 'finalize' } },
  // Numbered: only the write-back to the shop remains.
  finalized: { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'numbered', waitsFor: null, resumeFrom: { next: 'writeback' } },
  // The document is on the order: the end of the road, the entry may go (the order's meta remembers it).
  'written-back': { settled: true, mayExpire: true, dismissable: false, blocksCredit: false, document: 'numbered', waitsFor: null, resumeFrom: { done: 'already written back' } },
  // Issued once with an id nobody knows: issuing again would make a second document; a person attaches the id.
  'duplicate-unknown-id': { settled: false, mayExpire: false, dismissable: false, blocksCredit: true, document: 'unnumbered', waitsFor: 'attach', resumeFrom: { done: 'duplicate with unknown id (needs a person)' } },
  // Issued, but Get Document never gave a number: a credit note has nothing to reference until it does.
  'alert-no-number': { settled: false, mayExpire: false, dismissable: false, blocksCredit: true, document: 'unnumbered', waitsFor: null, resumeFrom: { next: 'finalize' } },
  // The mapping asked to hold: nothing issued; a person releases it (or issues by hand and dismisses).
  held: { settled: false, mayExpire: false, dismissable: true, blocksCredit: true, document: 'none', waitsFor: 'release', resumeFrom: null },
  // The order cannot be mapped or the service refused it: nothing issued; the next run (order changed) tries again.
  'mapping-failed': { settled: false, mayExpire: false, dismissable: true, blocksCredit: true, document: 'none', waitsFor: 'fix', resumeFrom: null },
  // Gave up before anything was issued (credentials, shop refusal, attempts ran out): a retry evaluates the order again.
  failed: { settled: false, mayExpire: false, dismissable: true, blocksCredit: true, document: 'none', waitsFor: 'fix', resumeFrom: null },
  // Nothing to issue (no invoice to credit): settled, and a later run evaluates again if the order changes.
  skipped: { settled: true, mayExpire: true, dismissable: false, blocksCredit: false, document: 'none', waitsFor: null, resumeFrom: null },
  // The invoice was annulled on the service: only the write-back remains, and nothing is ever issued for it again.
  cancelled: { settled: false, mayExpire: true, dismissable: false, blocksCredit: false, document: 'invoice-cancelled', waitsFor: null, resumeFrom: { next: 'writeback' } },
  // A person handled it outside the connector: never issued here, and kept (no expiry) so no sweep ever issues it.
  dismissed: { settled: true, mayExpire: false, dismissable: false, blocksCredit: false, document: 'none', waitsFor: null, resumeFrom: { done: 'handled outside the connector (dismissed by a person)' } },
};

/** A purpose with no state yet (only an error was recorded, or no entry at all): nothing issued, nothing settled. */
const NO_STATE: LedgerStateRules = { settled: false, mayExpire: false, dismissable: false, blocksCredit: false, document: 'none', waitsFor: null, resumeFrom: null };

/** The rules of an entry's state (`undefined`: no state recorded yet). */
export function stateRules(state: LedgerState | undefined): LedgerStateRules {
  return state === undefined ? NO_STATE : LEDGER_STATE_RULES[state];
}

export const LedgerEntrySchema = z.object({
  /** Absent while only an error was recorded (an attempt failed before its first step). */
  state: z.enum(LEDGER_STATES).optional(),
  purpose: z.string(),
  externalId: z.string().optional(),
  documentId: z.coerce.number().int().optional(),
  documentNumber: z.string().optional(),
  documentType: z.string().optional(),
  /** Shop total minus document total when per-rate rounding could not reach it ("0.01"). */
  totalDifference: z.string().optional(),
  /** The mapping's warnings for this document, shown in the write-back note. */
  warnings: z.string().optional(),
  /** The problem a person is asked to fix (problems.ts, as JSON): the console words it in the reader's language. */
  problem: z.string().optional(),
  /** The buyer's VAT number VIES confirmed before issuing and the day ("DE123456789 2026-11-23"), in the write-back note as evidence. */
  viesConfirmed: z.string().optional(),
  /** The document's date (yyyy-mm-dd), sent with the close: a credit note is never dated before it. */
  documentDate: z.string().optional(),
  /** Which draft create is current: a lost draft answer moves to the next (the old draft has no legal effect). */
  draftAttempt: z.coerce.number().int().optional(),
  /** Digest of the Client block sent with the create (no personal data in Redis). */
  clientKey: z.string().optional(),
  /**
   * The invoice's buyer as issued: the tax number on the document, from the service's own copy
   * (Get Document's Receiver), recorded when it is numbered. A later order with another buyer is
   * told to a person (pipeline/buyer-change.ts); the order keeps it too (META.buyer).
   */
  buyerNif: z.string().optional(),
  /** The country of the invoice's buyer as issued (Get Document's Receiver): its credit notes name the same buyer (CIVA art. 29(7)). */
  buyerCountry: z.string().optional(),
  /** The order's buyer a person was told differs from the invoice's (pipeline/buyer-change.ts): not told again for it. */
  buyerToldNif: z.string().optional(),
  reference: z.string().optional(),
  /** The document's total as the service computed it (text, 2 decimals), for the console. */
  total: z.string().optional(),
  /** The document's currency (ISO 4217) when it is not the euro: its amounts here (total, totalDifference) are in it. */
  currency: z.string().optional(),
  /** The difference between an order and its documents a person marked as settled outside the connector (order-changed): not told again while it stays the same. */
  settledDifference: z.string().optional(),
  /** When a person marked a problem of an issued document as settled outside the connector (refund-gone): not told again. */
  settledAt: z.coerce.number().optional(),
  /** A person released the hold (console "issue now"): the next run issues despite it. */
  holdReleasedAt: z.coerce.number().optional(),
  /** A person asked for a credit note of the whole invoice (console): the cancellation purpose issues one whatever onCancelled says. */
  creditNoteAskedAt: z.coerce.number().optional(),
  /** Why the purpose waits for a person (or how it ended). */
  detail: z.string().optional(),
  /** What the person does about it. */
  action: z.string().optional(),
  lastError: z.string().optional(),
  /** What the last failed attempt waits on, as facts (JSON of pipeline/attempt-wait.ts): the console words it. */
  lastWait: z.string().optional(),
  orderSeenAt: z.coerce.number().optional(),
  creatingAt: z.coerce.number().optional(),
  /**
   * The issuing marker (shop/order-meta.ts) is on the order and the close of draft `documentId` may
   * have been sent (ms): from here on the draft may be a numbered document, never to be replaced.
   */
  closingAt: z.coerce.number().optional(),
  createdAt: z.coerce.number().optional(),
  finalizedAt: z.coerce.number().optional(),
  metaWrittenAt: z.coerce.number().optional(),
  noteSentAt: z.coerce.number().optional(),
  noteWrittenAt: z.coerce.number().optional(),
  customerNoteSentAt: z.coerce.number().optional(),
  customerNoteAt: z.coerce.number().optional(),
  writtenBackAt: z.coerce.number().optional(),
  alertAt: z.coerce.number().optional(),
  updatedAt: z.coerce.number().optional(),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export type LedgerFields = Partial<Record<keyof LedgerEntry, string | number>>;

export interface LedgerRef {
  tenant: string;
  orderId: number;
  purpose: string;
}

/** How long the console's list of recent documents reaches back. */
const RECENT_DAYS = 30;
/** How often a process drops a tenant's recent documents older than RECENT_DAYS (with a write-back). */
const RECENT_TRIM_EVERY_MS = 60_000;

const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RELEASE_LOCK_SHA = sha1(RELEASE_LOCK);
/**
 * KEYS: entry, index; ARGV: purpose, retention (a TTL in ms: the purpose is finished; 'persist': it
 * is not, or no longer; '': unchanged), then field/value pairs. The entry's `purpose` field is set
 * from ARGV[1] (sent once, not again as a pair: 26 bytes less per record, issue 29).
 */
const RECORD = `redis.call('hset', KEYS[1], 'purpose', ARGV[1], unpack(ARGV, 3)) redis.call('sadd', KEYS[2], ARGV[1])
if ARGV[2] == 'persist' then redis.call('persist', KEYS[1]) redis.call('persist', KEYS[2])
elseif ARGV[2] ~= '' then redis.call('pexpire', KEYS[1], ARGV[2]) redis.call('pexpire', KEYS[2], ARGV[2]) end return 1`;
const RECORD_SHA = sha1(RECORD);
/** KEYS: entry, index; ARGV: purpose (also the entry's `purpose` field), field, expected value, then field/value pairs. */
const RECORD_IF = `if redis.call('hget', KEYS[1], ARGV[2]) ~= ARGV[3] then return 0 end redis.call('hset', KEYS[1], 'purpose', ARGV[1], unpack(ARGV, 4)) redis.call('sadd', KEYS[2], ARGV[1]) return 1`;
const RECORD_IF_SHA = sha1(RECORD_IF);
const RENEW_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RENEW_LOCK_SHA = sha1(RENEW_LOCK);
/** KEYS: series date; ARGV: date. Keeps the latest (yyyy-mm-dd compares as text). */
const ADVANCE_DATE = `local d = redis.call('get', KEYS[1]) if (not d) or d < ARGV[1] then redis.call('set', KEYS[1], ARGV[1]) return ARGV[1] end return d`;
const ADVANCE_DATE_SHA = sha1(ADVANCE_DATE);

/** The ledger's scripts by sha, for the bench's counts of EVALSHA by script (bench/counts.ts). */
export const LEDGER_SCRIPT_NAMES: Readonly<Record<string, string>> = {
  [RECORD_SHA]: 'ledger record',
  [RECORD_IF_SHA]: 'ledger record-if',
  [RENEW_LOCK_SHA]: 'ledger renew-lock',
  [RELEASE_LOCK_SHA]: 'ledger release-lock',
  [ADVANCE_DATE_SHA]: 'ledger advance-date',
};

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export class Ledger {
  /** When this process last trimmed each tenant's recent list (the write-back's time). */
  private readonly recentTrimmedAt = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    /** A finished entry (and the order's index) expires this long after its last step; 0 never. */
    private readonly retention: { finishedTtlMs: number } = { finishedTtlMs: 0 },
  ) {}

  key(ref: LedgerRef): string {
    return `${this.prefix}:ledger:${ref.tenant}:${ref.orderId}:${ref.purpose}`;
  }

  private indexKey(tenant: string, orderId: number): string {
    return `${this.prefix}:ledger-index:${tenant}:${orderId}`;
  }

  async get(ref: LedgerRef): Promise<LedgerEntry | null> {
    const hash = await this.redis.hgetall(this.key(ref));
    if (Object.keys(hash).length === 0) return null;
    return LedgerEntrySchema.parse(hash);
  }

  /**
   * Records a step; `now` is stamped as updatedAt. One script call: the entry and the index (which
   * only lists purposes for the admin API) in one command, one write and one round trip.
   */
  async record(ref: LedgerRef, fields: LedgerFields, now = Date.now()): Promise<void> {
    const args: string[] = [ref.purpose, this.retentionOf(fields.state), 'updatedAt', String(now)];
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) args.push(name, String(value));
    await this.script(RECORD, RECORD_SHA, [this.key(ref), this.indexKey(ref.tenant, ref.orderId)], args);
  }

  /**
   * A finished state starts the entry's countdown (and the index's: its last finished purpose sets
   * it); any other state stops it, so an entry that needs a person or is in flight never expires.
   */
  private retentionOf(state: string | number | undefined): string {
    if (state === undefined || this.retention.finishedTtlMs <= 0) return '';
    return isLedgerState(state) && LEDGER_STATE_RULES[state].mayExpire ? String(this.retention.finishedTtlMs) : 'persist';
  }

  /**
   * Records a step only if `field` still holds `expected` (compare-and-set): a worker whose draft
   * attempt was superseded (its lock expired while it hung) cannot overwrite the current one.
   */
  async recordIf(ref: LedgerRef, field: keyof LedgerEntry, expected: string | number, fields: LedgerFields, now = Date.now()): Promise<boolean> {
    const args: string[] = [ref.purpose, field, String(expected), 'updatedAt', String(now)];
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) args.push(name, String(value));
    return (await this.script(RECORD_IF, RECORD_IF_SHA, [this.key(ref), this.indexKey(ref.tenant, ref.orderId)], args)) === 1;
  }

  private seriesKey(tenant: string, series: string): string {
    return `${this.prefix}:series-date:${tenant}:${series}`;
  }

  /** The latest date (yyyy-mm-dd) this connector issued, or learnt the service has closed, in a series. */
  async seriesDate(tenant: string, series: string): Promise<string | null> {
    return this.redis.get(this.seriesKey(tenant, series));
  }

  /** Moves the series' latest date forward to `date` (never back); returns the latest. */
  async advanceSeriesDate(tenant: string, series: string, date: string): Promise<string> {
    return String(await this.script(ADVANCE_DATE, ADVANCE_DATE_SHA, [this.seriesKey(tenant, series)], [date]));
  }

  /** EVALSHA, and EVAL only when Redis does not know the script (first use, or after a restart). */
  private async script(source: string, sha: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error as Error).message.includes('NOSCRIPT')) throw error;
      return this.redis.eval(source, keys.length, ...keys, ...args);
    }
  }

  async clearFields(ref: LedgerRef, fields: (keyof LedgerEntry)[]): Promise<void> {
    await this.redis.hdel(this.key(ref), ...fields);
  }

  private regimeKey(tenant: string, year: number): string {
    return `${this.prefix}:m10-turnover:${tenant}:${year}`;
  }

  /**
   * Counts an issued M10 document in its year's turnover (CIVA art. 53, DL 35/2025): its total in
   * euro cents, negative for a credit note, by order and purpose (a repeated record counts once).
   */
  async countRegimeDocument(ref: LedgerRef, year: number, euroCents: bigint): Promise<void> {
    await this.redis.hset(this.regimeKey(ref.tenant, year), `${ref.orderId}:${ref.purpose}`, euroCents.toString());
  }

  /** The year's M10 documents in euros ("18600.00"): invoices less credit notes, as counted when issued. */
  async regimeTurnover(tenant: string, year: number): Promise<string> {
    const values = await this.redis.hvals(this.regimeKey(tenant, year));
    const cents = values.reduce((total, value) => total + (/^-?\d+$/.test(value) ? BigInt(value) : 0n), 0n);
    return formatDecimal(fromCents(cents), 2);
  }

  /** Every purpose recorded for an order (invoice, waybill, credit notes...), for the admin API. */
  async forOrder(tenant: string, orderId: number): Promise<Record<string, LedgerEntry>> {
    const purposes = await this.redis.smembers(this.indexKey(tenant, orderId));
    const entries: Record<string, LedgerEntry> = {};
    for (const purpose of purposes.sort()) {
      const entry = await this.get({ tenant, orderId, purpose });
      if (entry) entries[purpose] = entry;
    }
    return entries;
  }

  /**
   * Every purpose of many orders at once (the month pack reads thousands): two pipelined round trips
   * instead of one per order and purpose.
   */
  async forOrders(tenant: string, orderIds: readonly number[]): Promise<Map<number, Record<string, LedgerEntry>>> {
    const found = new Map<number, Record<string, LedgerEntry>>();
    const indexes = await this.redis.pipeline(orderIds.map((orderId) => ['smembers', this.indexKey(tenant, orderId)])).exec();
    const refs: LedgerRef[] = [];
    orderIds.forEach((orderId, i) => {
      const purposes = (indexes?.[i]?.[1] ?? []) as string[];
      for (const purpose of [...purposes].sort()) refs.push({ tenant, orderId, purpose });
    });
    const hashes = refs.length === 0 ? [] : ((await this.redis.pipeline(refs.map((ref) => ['hgetall', this.key(ref)])).exec()) ?? []);
    refs.forEach((ref, i) => {
      const hash = hashes[i]?.[1] as Record<string, string> | undefined;
      if (!hash || Object.keys(hash).length === 0) return;
      found.set(ref.orderId, { ...(found.get(ref.orderId) ?? {}), [ref.purpose]: LedgerEntrySchema.parse(hash) });
    });
    return found;
  }

  /**
   * A per-order, per-purpose lock (SET NX PX): two deliveries of the same order processed at the same
   * moment cannot both reach the create. Returns the token to release it with, or null when held.
   */
  async acquireLock(ref: LedgerRef, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    const ok = await this.redis.set(`${this.key(ref)}:lock`, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? token : null;
  }

  /** Extends a held lock; false when it was lost (expired and maybe taken by another worker). */
  async renewLock(ref: LedgerRef, token: string, ttlMs: number): Promise<boolean> {
    return (await this.script(RENEW_LOCK, RENEW_LOCK_SHA, [`${this.key(ref)}:lock`], [token, String(ttlMs)])) === 1;
  }

  async releaseLock(ref: LedgerRef, token: string): Promise<void> {
    await this.script(RELEASE_LOCK, RELEASE_LOCK_SHA, [`${this.key(ref)}:lock`], [token]);
  }

  /** Orders that need a person (every reason: see pipeline/needs-person.ts), scored by when. */
  async markAttention(ref: LedgerRef, now = Date.now()): Promise<void> {
    await this.redis.zadd(`${this.prefix}:attention`, now, `${ref.tenant}:${ref.orderId}:${ref.purpose}`);
  }

  async clearAttention(ref: LedgerRef): Promise<void> {
    await this.redis.zrem(`${this.prefix}:attention`, `${ref.tenant}:${ref.orderId}:${ref.purpose}`);
  }

  async attention(limit = 100): Promise<string[]> {
    return this.redis.zrevrange(`${this.prefix}:attention`, 0, limit - 1);
  }

  /**
   * One page of the attention list, newest first, of one tenant or all, and how many there are in
   * all: no reader is cut off at a fixed count (the list is small in normal life; a bad day may
   * leave thousands, each of which must be reachable).
   */
  async attentionPage(page: { tenant?: string; offset: number; limit: number }): Promise<{ members: string[]; total: number }> {
    const all = await this.redis.zrevrange(`${this.prefix}:attention`, 0, -1);
    const own = page.tenant === undefined ? all : all.filter((member) => member.startsWith(`${page.tenant}:`));
    return { members: own.slice(page.offset, page.offset + page.limit), total: own.length };
  }

  /**
   * Documents written back, newest first, for the console; kept for RECENT_DAYS. What is older is
   * dropped with a write, at most once a minute per tenant and process (RECENT_TRIM_EVERY_MS), not
   * with each: one command less per order (issue 29). An entry may so outlive its 30 days by a minute,
   * as it already outlives them until the tenant's next write-back.
   */
  async markWrittenBack(ref: LedgerRef, at: number): Promise<void> {
    const key = `${this.prefix}:recent:${ref.tenant}`;
    const trimmedAt = this.recentTrimmedAt.get(ref.tenant);
    if (trimmedAt !== undefined && at >= trimmedAt && at - trimmedAt < RECENT_TRIM_EVERY_MS) {
      await this.redis.zadd(key, at, `${ref.orderId}:${ref.purpose}`);
      return;
    }
    this.recentTrimmedAt.set(ref.tenant, at);
    // Sent together (one round trip), run in this order.
    await Promise.all([this.redis.zadd(key, at, `${ref.orderId}:${ref.purpose}`), this.redis.zremrangebyscore(key, '-inf', at - RECENT_DAYS * 86_400_000)]);
  }

  async recent(tenant: string, limit: number, offset = 0): Promise<{ orderId: number; purpose: string; at: number }[]> {
    const flat = await this.redis.zrevrange(`${this.prefix}:recent:${tenant}`, offset, offset + limit - 1, 'WITHSCORES');
    const items: { orderId: number; purpose: string; at: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const [orderId, purpose] = [flat[i].slice(0, flat[i].indexOf(':')), flat[i].slice(flat[i].indexOf(':') + 1)];
      items.push({ orderId: Number(orderId), purpose, at: Number(flat[i + 1]) });
    }
    return items;
  }

  /** How many documents the recent list holds (the console pages through them). */
  async recentCount(tenant: string): Promise<number> {
    return this.redis.zcard(`${this.prefix}:recent:${tenant}`);
  }

  /** Documents written back since `since` (ms), for today's figures. */
  async writtenBackSince(tenant: string, since: number): Promise<number> {
    return this.redis.zcount(`${this.prefix}:recent:${tenant}`, since, '+inf');
  }

  /** How many purposes wait for a person, per tenant. */
  async attentionCounts(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const member of await this.redis.zrange(`${this.prefix}:attention`, 0, -1)) {
      const tenant = member.slice(0, member.indexOf(':'));
      counts.set(tenant, (counts.get(tenant) ?? 0) + 1);
    }
    return counts;
  }
}
