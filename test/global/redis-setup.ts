import { redisForRun, RedisUnavailableError } from '../../dev/private-redis';
import { buildTestCli, TEST_CLI_ENV } from './cli-build';

/**
 * Jest globalSetup: the Redis every test file uses (through REDIS_URL, which the workers inherit).
 * The one at REDIS_URL (default 127.0.0.1:6379) when it answers; else a private redis-server on a
 * free port, stopped by redis-teardown.ts; else the run stops at once with the install line.
 * Also compiles the CLI once for the tests that start it as a process (cli-build.ts), named by
 * MAGNIFINANCE_TEST_CLI.
 */
export default async function setup(): Promise<void> {
  try {
    const redis = await redisForRun();
    process.env.REDIS_URL = redis.url;
    (globalThis as { __privateRedis?: typeof redis }).__privateRedis = redis;
    if (redis.private) process.stderr.write(`\njest: no Redis answered, started a private redis-server at ${redis.url}\n`);
  } catch (error) {
    if (error instanceof RedisUnavailableError) {
      process.stderr.write(`\njest: the tests need Redis. ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // MAGNIFINANCE_TEST_CLI=ts-node (or any path that is not a file) starts the sources through ts-node instead.
  if (process.env[TEST_CLI_ENV] === undefined) {
    const cli = buildTestCli();
    process.env[TEST_CLI_ENV] = cli.file;
    (globalThis as { __testCliDir?: string }).__testCliDir = cli.dir;
  }
}
