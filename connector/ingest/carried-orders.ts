/**
 * The orders the last webhook deliveries carried, kept a few seconds in this process so the worker
 * that picks their job up (in the same `connector all` process) composes the document from the copy
 * the shop has just sent instead of reading it again. Only a hint: the worker proves the copy is
 * still the shop's with its one read under the order's lock (pipeline/issue-step.ts) and reads
 * the order afresh when it is not. Bounded in copies and in bytes (the oldest go first), and
 * short-lived, so a burst costs a few MB at most; a copy is handed out once.
 *
 * The bytes of a copy are handed back to the allocator as soon as it is taken, evicted or found
 * expired, not when V8's next mark-compact collects its Buffer: a copy lives seconds, long enough
 * for its Buffer to be promoted, and a promoted Buffer's bytes stay in the resident set until a
 * full collection (issue 29: the 6 KB of each order taken since the last one, ~4 MB at the e2e
 * bench's peak).
 */
export const CARRIED_ORDER_TTL_MS = 30_000;
const CARRIED_ORDER_BOUND = 2_048;
/** 2,730 of the bench's 6 KB orders; an order of many lines is 20-50 KB. */
const CARRIED_ORDER_BYTES = 16 * 1024 * 1024;

export class CarriedOrders {
  /** Insertion order is age order: the first entries are the oldest. */
  private readonly bodies = new Map<number, { body: Buffer; at: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs = CARRIED_ORDER_TTL_MS,
    private readonly bound = CARRIED_ORDER_BOUND,
    private readonly maxBytes = CARRIED_ORDER_BYTES,
  ) {}

  /**
   * The delivery's body (the order's JSON as the shop sent it), received at `at`. The copy kept is
   * this object's own: `owned` says `body` is already one (ownCopy) that the caller gives up.
   */
  put(orderId: number, body: Buffer, at: number, owned = false): void {
    this.drop(orderId);
    this.dropExpired(at);
    if (body.length > this.maxBytes) {
      if (owned) releaseCopy(body);
      return;
    }
    const own = owned ? body : ownCopy(body);
    this.bodies.set(orderId, { body: own, at });
    this.bytes += own.length;
    while (this.bodies.size > this.bound || this.bytes > this.maxBytes) this.drop(this.bodies.keys().next().value as number);
  }

  /** The order as the last delivery carried it, when it came within the TTL; handed out once. */
  take(orderId: number, now: number): unknown {
    const entry = this.bodies.get(orderId);
    let order: unknown;
    if (entry && now - entry.at <= this.ttlMs && now >= entry.at) {
      try {
        order = JSON.parse(entry.body.toString('utf8')) as unknown;
      } catch {
        order = undefined;
      }
    }
    this.drop(orderId);
    this.dropExpired(now);
    return order;
  }

  get size(): number {
    return this.bodies.size;
  }

  /** Bytes held by the copies. */
  get heldBytes(): number {
    return this.bytes;
  }

  private drop(orderId: number): void {
    const entry = this.bodies.get(orderId);
    if (!entry) return;
    this.bodies.delete(orderId);
    this.bytes -= entry.body.length;
    releaseCopy(entry.body);
  }

  /** The oldest copies, past their TTL: nobody will take them. */
  private dropExpired(now: number): void {
    for (const [orderId, entry] of this.bodies) {
      if (now - entry.at <= this.ttlMs) return;
      this.drop(orderId);
    }
  }
}

/**
 * A copy of a delivery's body in a buffer of its own, never a view on a larger one (a socket read's,
 * which would keep all of it alive) nor on Node's shared pool: the webhook route takes it before
 * planning, so the socket's read goes young while the plan waits on Redis, and either keeps it
 * here (put, owned) or hands it back (releaseCopy).
 */
export function ownCopy(body: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(body.length);
  body.copy(own);
  return own;
}

/**
 * An ownCopy's bytes back to the allocator now: its ArrayBuffer (wholly the copy's) is moved into
 * a clone nobody keeps, which the next scavenge collects with them, and the copy is left empty.
 */
export function releaseCopy(copy: Buffer): void {
  const bytes = copy.buffer as ArrayBuffer;
  structuredClone(bytes, { transfer: [bytes] });
}
