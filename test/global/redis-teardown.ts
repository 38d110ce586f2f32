import type { RedisForRun } from '../../dev/private-redis';

/** Jest globalTeardown: stops the private redis-server redis-setup.ts started, if any. */
export default async function teardown(): Promise<void> {
  await (globalThis as { __privateRedis?: RedisForRun }).__privateRedis?.stop();
}
