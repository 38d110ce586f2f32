import { rmSync } from 'node:fs';
import type { RedisForRun } from '../../dev/private-redis';

/** Jest globalTeardown: stops the private redis-server redis-setup.ts started, if any, and removes the run's compiled CLI. */
export default async function teardown(): Promise<void> {
  const dir = (globalThis as { __testCliDir?: string }).__testCliDir;
  if (dir) rmSync(dir, { recursive: true, force: true });
  await (globalThis as { __privateRedis?: RedisForRun }).__privateRedis?.stop();
}
