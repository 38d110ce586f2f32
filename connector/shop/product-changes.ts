import { z } from 'zod';
import type { Logger } from 'pino';
import type { RedisClient } from '../core/redis-connection';

/**
 * A shop's word that some of its products changed, went or came back (WooCommerce's product.*
 * webhooks), passed to every process of the connector: the delivery reaches one `serve` process,
 * while the products are cached by each process's Shop (the workers' above all). Over Redis pub/sub:
 * nothing is stored, and a process whose subscription is down when a change is told (Redis away, a
 * reconnect) keeps its copy until the cache time ends (SHOP_FACTS_TTL_MS), as without the webhook.
 */
export interface ProductChange {
  tenant: string;
  /** The products' or variants' ids, as the shop numbers them. */
  ids: number[];
}

const ProductChangeSchema = z.object({ tenant: z.string().min(1), ids: z.array(z.number().int().positive()).min(1).max(100) });

function channelOf(prefix: string): string {
  return `${prefix}:product-changes`;
}

/** Tells every process (this one included, through its own subscription) that these products changed. */
export async function tellProductChange(redis: RedisClient, prefix: string, change: ProductChange): Promise<void> {
  await redis.publish(channelOf(prefix), JSON.stringify(change));
}

/**
 * Subscribes `subscriber` (a connection of its own: a subscribed connection runs no other command;
 * ioredis subscribes again after a reconnect) and hands every change told under `prefix` to
 * `forget`. A message that is not a change (another program on the channel) is logged and dropped.
 */
export async function listenForProductChanges(subscriber: RedisClient, prefix: string, forget: (change: ProductChange) => void, logger: Logger): Promise<void> {
  const channel = channelOf(prefix);
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let change: ProductChange;
    try {
      change = ProductChangeSchema.parse(JSON.parse(text));
    } catch (error) {
      logger.warn({ channel, err: error instanceof Error ? error.message : String(error) }, 'a product change that is not one was dropped');
      return;
    }
    forget(change);
  });
  await subscriber.subscribe(channel);
}
