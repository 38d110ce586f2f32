/**
 * The orders the last webhook deliveries carried, kept a few seconds in this process so the worker
 * that picks their job up (in the same `connector all` process) composes the document from the copy
 * the shop has just sent instead of reading it again. Only a hint: the worker proves the copy is
 * still the shop's with its one read under the order's lock (pipeline/issue-step.ts) and reads
 * the order afresh when it is not. Bounded (the oldest go first) and short-lived, so a burst costs a
 * few MB at most; a copy is handed out once.
 */
export const CARRIED_ORDER_TTL_MS = 30_000;
const CARRIED_ORDER_BOUND = 2_048;

export class CarriedOrders {
  /** Insertion order is age order: the first entries are the oldest. */
  private readonly bodies = new Map<number, { body: Buffer; at: number }>();

  constructor(
    private readonly ttlMs = CARRIED_ORDER_TTL_MS,
    private readonly bound = CARRIED_ORDER_BOUND,
  ) {}

  /** The delivery's body (the order's JSON as the shop sent it), received at `at`. */
  put(orderId: number, body: Buffer, at: number): void {
    this.bodies.delete(orderId);
    // A view on a larger buffer (a socket read's) would keep all of it alive: kept as its own copy.
    const own = body.byteOffset === 0 && body.buffer.byteLength === body.length ? body : Buffer.from(body);
    this.bodies.set(orderId, { body: own, at });
    while (this.bodies.size > this.bound) this.bodies.delete(this.bodies.keys().next().value as number);
  }

  /** The order as the last delivery carried it, when it came within the TTL; handed out once. */
  take(orderId: number, now: number): unknown {
    const entry = this.bodies.get(orderId);
    if (!entry) return undefined;
    this.bodies.delete(orderId);
    if (now - entry.at > this.ttlMs || now < entry.at) return undefined;
    try {
      return JSON.parse(entry.body.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  get size(): number {
    return this.bodies.size;
  }
}
