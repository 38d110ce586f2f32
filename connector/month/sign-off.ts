import { z } from 'zod';
import type { RedisClient } from '../core/redis-connection';

/**
 * The accountant's sign-off of a shop's month: "this month is closed" (who, when), one hash per
 * tenant under the connector's key prefix (`<prefix>:month:closed:<tenant>`, field yyyy-mm). The
 * accountant's read-only role may write this one thing; the shop's administrator may reopen a month.
 * Once a month is closed, a document the connector issues dated in it goes to a person
 * (pipeline/document-job.ts, problem `month-closed`) instead of passing silently, and the month's
 * pack names every document issued after the sign-off.
 */

export const SignOffSchema = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/), by: z.string().min(1).max(100), at: z.number().int().nonnegative() });
export type SignOff = z.infer<typeof SignOffSchema>;

export class MonthSignOffs {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(tenant: string): string {
    return `${this.prefix}:month:closed:${tenant}`;
  }

  /** Closes the month (again: the latest sign-off is kept, with who and when). */
  async close(tenant: string, signOff: SignOff): Promise<SignOff> {
    const parsed = SignOffSchema.parse(signOff);
    await this.redis.hset(this.key(tenant), parsed.month, JSON.stringify(parsed));
    return parsed;
  }

  /** Reopens it; true when it was closed. */
  async reopen(tenant: string, month: string): Promise<boolean> {
    return (await this.redis.hdel(this.key(tenant), month)) > 0;
  }

  /** The month's sign-off, when closed (a field that no longer reads as one counts as closed by nobody known). */
  async of(tenant: string, month: string): Promise<SignOff | undefined> {
    const text = await this.redis.hget(this.key(tenant), month);
    if (text === null) return undefined;
    const parsed = SignOffSchema.safeParse(jsonOrUndefined(text));
    return parsed.success ? parsed.data : { month, by: '?', at: 0 };
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
