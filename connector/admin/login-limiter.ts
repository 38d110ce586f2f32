/**
 * Limits wrong admin logins per client, with back-off: the first FREE_FAILURES wrong guesses of a
 * client cost nothing, each later one doubles its wait (1 s, 2 s, 4 s … up to MAX_BLOCK_MS), and while
 * a client waits every request of it answers 429 with Retry-After before its credentials are even
 * compared. A right login clears the client's record. Without it Basic auth took thousands of guesses
 * a second.
 *
 * A client is its address as Express resolves it (req.ip, which honours X-Forwarded-For only from
 * the proxies in server.trustProxy) and, with a 20 times larger allowance, the TCP peer: a client that invents a new
 * X-Forwarded-For for every guess still meets the peer's limit. Counters live in the process (an
 * outage of Redis must not lock the admins out); each HTTP process keeps its own.
 */
export const FREE_FAILURES = 5;
export const MAX_BLOCK_MS = 15 * 60_000;
/** The TCP peer may be a proxy in front of many people: its allowance is this many times larger. */
const PEER_FACTOR = 20;
/** Records untouched this long are forgotten. */
const FORGET_MS = 60 * 60_000;
const MAX_RECORDS = 10_000;

interface Failures {
  count: number;
  blockedUntil: number;
  lastAt: number;
}

export interface LoginClient {
  /** req.ip */
  address: string;
  /** req.socket.remoteAddress */
  peer: string;
}

export class LoginLimiter {
  private readonly records = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the client must still wait (0: it may try). */
  waitFor(client: LoginClient): number {
    const now = this.now();
    return Math.max(0, ...this.keysOf(client).map((key) => (this.records.get(key)?.blockedUntil ?? 0) - now));
  }

  /** A wrong guess: counted for the client's address and for its peer. */
  failed(client: LoginClient): void {
    const now = this.now();
    this.forgetOld(now);
    const [address, peer] = this.keysOf(client);
    this.count(address, FREE_FAILURES, now);
    if (peer !== address) this.count(peer, FREE_FAILURES * PEER_FACTOR, now);
  }

  /** A right login: the address starts afresh (the peer keeps its count: it may be a proxy). */
  succeeded(client: LoginClient): void {
    this.records.delete(this.keysOf(client)[0]);
  }

  private count(key: string, free: number, now: number): void {
    const record = this.records.get(key) ?? { count: 0, blockedUntil: 0, lastAt: now };
    record.count += 1;
    record.lastAt = now;
    if (record.count > free) record.blockedUntil = now + Math.min(MAX_BLOCK_MS, 1_000 * 2 ** Math.min(30, record.count - free - 1));
    this.records.set(key, record);
  }

  private keysOf(client: LoginClient): [string, string] {
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
