/**
 * One rate limiter for every door a person or a script knocks on (the admin login, the PDF links),
 * keyed the same way: a client is its address as Express resolves it (req.ip, which honours
 * X-Forwarded-For only from the proxies in server.trustProxy) and, with a larger allowance, the TCP
 * peer, so a client that invents a new X-Forwarded-For for every request still meets the peer's limit. Counters live in the
 * process (an outage of Redis must not lock people out); each HTTP process keeps its own.
 */

/** Who a request comes from. */
export interface RequestClient {
  /** req.ip */
  address: string;
  /** req.socket.remoteAddress */
  peer: string;
}

/** The client of an Express request. */
export function requestClient(req: { ip?: string; socket: { remoteAddress?: string } }): RequestClient {
  return { address: req.ip ?? req.socket.remoteAddress ?? '', peer: req.socket.remoteAddress ?? '' };
}

export interface LimitPolicy {
  /** Counted events an address may have (in a window, when there is one) before it waits. */
  free: number;
  /** The TCP peer may be a proxy in front of many people: its allowance is this many times larger. */
  peerFactor: number;
  /**
   * `doubling`: each event over the allowance doubles the wait (1 s, 2 s, 4 s ... up to `maxWaitMs`)
   * and the count lasts until cleared; `window`: counts start afresh every `windowMs` (fixed windows),
   * and a client over its allowance waits for the next one.
   */
  wait: { kind: 'doubling'; maxWaitMs: number } | { kind: 'window'; windowMs: number };
}

interface Count {
  count: number;
  blockedUntil: number;
  lastAt: number;
  windowStart: number;
}

/** Records untouched this long are forgotten once the table is full. */
const FORGET_MS = 60 * 60_000;
const MAX_RECORDS = 10_000;

export class ClientLimiter {
  private readonly records = new Map<string, Count>();

  constructor(
    private readonly policy: LimitPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds the client must still wait (0: it may go on). */
  waitFor(client: RequestClient): number {
    const now = this.now();
    return Math.max(0, ...this.keysOf(client).map((key) => (this.records.get(key)?.blockedUntil ?? 0) - now));
  }

  /** Counts an event of the client (a wrong guess, a visit) for its address and its peer; returns its wait from now on. */
  count(client: RequestClient): number {
    const now = this.now();
    this.forgetOld(now);
    const [address, peer] = this.keysOf(client);
    this.countKey(address, this.policy.free, now);
    if (peer !== address) this.countKey(peer, this.policy.free * this.policy.peerFactor, now);
    return this.waitFor(client);
  }

  /** The client's address starts afresh (a right login); the peer keeps its count: it may be a proxy. */
  clear(client: RequestClient): void {
    this.records.delete(this.keysOf(client)[0]);
  }

  private countKey(key: string, free: number, now: number): void {
    const { wait } = this.policy;
    const windowStart = wait.kind === 'window' ? now - (now % wait.windowMs) : 0;
    const existing = this.records.get(key);
    const record = existing && existing.windowStart === windowStart ? existing : { count: 0, blockedUntil: 0, lastAt: now, windowStart };
    record.count += 1;
    record.lastAt = now;
    if (record.count > free) {
      record.blockedUntil = wait.kind === 'window' ? windowStart + wait.windowMs : now + Math.min(wait.maxWaitMs, 1_000 * 2 ** Math.min(30, record.count - free - 1));
    }
    this.records.set(key, record);
  }

  private keysOf(client: RequestClient): [string, string] {
    return [`ip:${client.address}`, `peer:${client.peer}`];
  }

  private forgetOld(now: number): void {
    if (this.records.size < MAX_RECORDS) return;
    for (const [key, record] of this.records) if (now - record.lastAt > FORGET_MS && record.blockedUntil < now) this.records.delete(key);
    // Still full (a flood of distinct addresses): the oldest go first.
    for (const key of this.records.keys()) {
      if (this.records.size < MAX_RECORDS) break;
      this.records.delete(key);
    }
  }
}
