import { z } from 'zod';
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../core/redis-connection';

/**
 * An order's story as the console's order page tells it: what was received and when, each attempt
 * and the service's answer, each document, each note written to the shop, each problem and each
 * action a person took (and who). One capped Redis list per tenant + order, newest last; events are
 * facts (codes and parameters), worded in the reader's language when shown. It is a record for
 * people, never read to decide anything: the ledger stays the only memory that guards a document.
 */
const At = z.number().int().nonnegative();
const Purpose = z.string().max(64);

export const HistoryEventSchema = z.discriminatedUnion('kind', [
  /** An order (or its update) came in: by webhook, the sweep, a backfill or the console. */
  z.object({ kind: z.literal('received'), at: At, via: z.enum(['webhook', 'sweep', 'backfill', 'console']), status: z.string().max(64).optional() }),
  /** A call to the invoicing service or the shop for a purpose, and its answer (`ok` false: `error` says what came back). */
  z.object({
    kind: z.literal('attempt'),
    at: At,
    purpose: Purpose,
    step: z.enum(['draft', 'create', 'close', 'get-document', 'write-back', 'cancel', 'vies']),
    ok: z.boolean(),
    /** The answer in English, for logs and older readers. */
    error: z.string().max(2000).optional(),
    /** The answer as facts (pipeline/answers.ts, JSON): worded in the reader's language with answerWords. */
    answer: z.string().max(8000).optional(),
  }),
  /** A document was issued (or became known: attached) for a purpose. */
  z.object({
    kind: z.literal('document'),
    at: At,
    purpose: Purpose,
    documentId: z.number().int(),
    number: z.string().max(64).optional(),
    type: z.string().max(4).optional(),
    total: z.string().max(32).optional(),
    /** A credit note or cancellation: the number of the invoice it corrects. */
    corrects: z.string().max(64).optional(),
  }),
  /** A note written on the order in the shop (`customer`: the buyer sees it and is e-mailed). */
  z.object({ kind: z.literal('note'), at: At, purpose: Purpose.optional(), customer: z.boolean(), text: z.string().max(4000) }),
  /** The purpose waits for a person: the problem as recorded (pipeline/problems.ts, JSON). */
  z.object({ kind: z.literal('problem'), at: At, purpose: Purpose, problem: z.string().max(8000) }),
  /** A person acted from the console or the admin API. */
  z.object({
    kind: z.literal('action'),
    at: At,
    purpose: Purpose.optional(),
    by: z.string().max(200),
    action: z.enum(['retry', 'attach', 'issue-now', 'credit-note', 'cancellation', 'dismiss', 'settle']),
    /** What the person wrote or chose (the dismiss reason, the attached document id). */
    detail: z.string().max(1000).optional(),
  }),
]);
export type HistoryEvent = z.infer<typeof HistoryEventSchema>;
/** An event as recorded: `at` defaults to now. */
export type NewHistoryEvent = HistoryEvent extends infer E ? (E extends HistoryEvent ? Omit<E, 'at'> & { at?: number } : never) : never;

/** How many events an order keeps (the oldest go first); enough for years of an ordinary order. */
export const HISTORY_LIMIT = 200;

/** The longest text of each field the schema reads back (a longer one is cut when written). */
const TEXT_LIMITS: Readonly<Record<string, number>> = { status: 64, purpose: 64, error: 2000, answer: 8000, number: 64, type: 4, total: 32, corrects: 64, text: 4000, problem: 8000, by: 200, detail: 1000 };

/** `event` with every text longer than the schema allows cut (in place: the caller's own copy). */
function withinLimits<E extends Record<string, unknown>>(event: E): E {
  const fields = event as Record<string, unknown>;
  for (const field in fields) {
    const max = TEXT_LIMITS[field];
    const value = fields[field];
    if (typeof max === 'number' && typeof value === 'string' && value.length > max) fields[field] = value.slice(0, max);
  }
  return event;
}

/**
 * Appends each order's lines to its story, keeps its last HISTORY_LIMIT and renews its retention:
 * the stories of one record (a batch of deliveries, a step's events) in one script call, where
 * RPUSH, LTRIM and PEXPIRE per order were three commands each, ~5 us of the client's CPU apiece
 * (issue 29). LTRIM only runs when the push took the story past the limit. KEYS: the stories;
 * ARGV: the limit, the retention in ms (0: kept for ever), then per story its count of lines and
 * the lines. The stories share the prefix's hash tag in a cluster (redis.cluster), as BullMQ's keys do.
 */
const APPEND_STORIES = `
local limit = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local at = 3
for _, key in ipairs(KEYS) do
  local count = tonumber(ARGV[at])
  local length = redis.call('RPUSH', key, unpack(ARGV, at + 1, at + count))
  if length > limit then redis.call('LTRIM', key, -limit, -1) end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
  at = at + count + 1
end
return #KEYS`;
const APPEND_COMMAND = 'magnifinanceAppendStories';
/** The script's source, for the bench's counts of EVALSHA by script (bench/counts.ts: ioredis's sha is its SHA-1). */
export const HISTORY_SCRIPTS: Readonly<Record<string, string>> = { [APPEND_COMMAND]: APPEND_STORIES };

type AppendStories = (...args: (string | number)[]) => Promise<unknown>;

/** The script on a connection or its MULTI (defined on the connection by the constructor: EVALSHA, loaded by ioredis when Redis does not know it). */
function appendStories(target: RedisClient | ChainableCommander): AppendStories {
  return ((target as unknown as Record<string, AppendStories>)[APPEND_COMMAND] as AppendStories).bind(target);
}

export class OrderHistory {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    /** How long an order's story is kept after its last event; 0 keeps it for ever. */
    private readonly ttlMs = 0,
  ) {
    if (!(APPEND_COMMAND in redis)) redis.defineCommand(APPEND_COMMAND, { lua: APPEND_STORIES });
  }

  key(tenant: string, orderId: number): string {
    return `${this.prefix}:history:${tenant}:${orderId}`;
  }

  private numbersKey(tenant: string): string {
    return `${this.prefix}:document-numbers:${tenant}`;
  }

  /** Appends an event. A history that cannot be written never stops a document: the caller may ignore the promise's rejection. */
  async add(tenant: string, orderId: number, event: NewHistoryEvent, now = Date.now()): Promise<void> {
    await this.record([{ tenant, orderId, event }], now);
  }

  /**
   * Appends events of one or more orders in one MULTI (one round trip): a step's attempts, document
   * and notes, or the orders of one webhook batch. Written without the schema's parse (it cost a
   * fifth of the ingest rate in `npm run bench`: 5,016-5,340 against 6,224-6,618 webhooks/s): the
   * events are typed where they are made, and texts longer than the schema allows are cut here, so
   * what is written reads back.
   */
  async record(events: readonly { tenant: string; orderId: number; event: NewHistoryEvent }[], now = Date.now()): Promise<void> {
    if (events.length === 0) return;
    const numbers: [string, ...string[]][] = [];
    // One RPUSH per order with all its events, in the order given (a step's attempts, document and
    // note are one push, not one each).
    const lines = new Map<string, string[]>();
    for (const { tenant, orderId, event } of events) {
      const key = this.key(tenant, orderId);
      const text = JSON.stringify(withinLimits({ ...event, at: event.at ?? now }));
      const list = lines.get(key);
      if (list) list.push(text);
      else lines.set(key, [text]);
      if (event.kind === 'document' && event.number) numbers.push(['hset', this.numbersKey(tenant), event.number.toUpperCase(), String(orderId)]);
    }
    const args: (string | number)[] = [lines.size, ...lines.keys(), HISTORY_LIMIT, this.ttlMs];
    for (const texts of lines.values()) args.push(texts.length, ...texts);
    // On an auto-pipelined connection (the ledger's, the webhook route's) the commands join whatever
    // the caller sends in the same tick (a step's final ledger record): one socket write, not two.
    if (this.redis.options.enableAutoPipelining) {
      await Promise.all([appendStories(this.redis)(...args), ...numbers.map(([name, ...rest]) => this.redis.call(name, ...rest))]);
      return;
    }
    // A command refused inside the MULTI (a key of another type) is said, not swallowed: the caller logs it.
    const batch = this.redis.multi(numbers);
    appendStories(batch)(...args);
    const failed = (await batch.exec())?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }

  /**
   * The order's events, oldest first (by `at`: a job writes its run's events together when it stops,
   * so a delivery that came meanwhile may sit before them in the list); an event that does not
   * parse (an older version's) is left out.
   */
  async of(tenant: string, orderId: number): Promise<HistoryEvent[]> {
    const raw = await this.redis.lrange(this.key(tenant, orderId), 0, -1);
    const events: HistoryEvent[] = [];
    for (const text of raw) {
      try {
        const parsed = HistoryEventSchema.safeParse(JSON.parse(text));
        if (parsed.success) events.push(parsed.data);
      } catch {
        // not JSON: skipped
      }
    }
    // Array.prototype.sort is stable: events of the same instant keep their written order.
    return events.sort((a, b) => a.at - b.at);
  }

  /** The order a document number belongs to ("FT A/12", any case), for the console's search. */
  async orderOfNumber(tenant: string, number: string): Promise<number | null> {
    const id = await this.redis.hget(this.numbersKey(tenant), number.trim().toUpperCase());
    return id === null ? null : Number(id);
  }
}
