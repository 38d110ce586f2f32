import type { RedisClient } from '../core/redis-connection';
import { parseSecretsKey } from '../core/sealed-secret';

/**
 * What a running connector lends a platform's Shop beyond the tenant's config: where it keeps what the
 * shop handed over at install time (a Shopify store's offline token, sealed with the operator's key).
 * A command without Redis (a dry run, a test of one Shop) builds its Shops without it.
 */
export interface ShopServices {
  redis: RedisClient;
  prefix: string;
  /** The operator's key for secrets kept at rest (server.secretsKey, 32 bytes); absent when not configured. */
  secretsKey?: Buffer;
}

/** The services of a process that has the connector's Redis; the key as the config holds it (checked when the file was read). */
export function shopServices(redis: RedisClient, prefix: string, secretsKey: string | undefined): ShopServices {
  const key = secretsKey === undefined ? undefined : parseSecretsKey(secretsKey);
  return { redis, prefix, ...(key ? { secretsKey: key } : {}) };
}
