import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { redisAnswers, redisForRun, RedisUnavailableError } from '../../dev/private-redis';

/** A port nothing listens on (taken, then released). */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('Redis for npm run demo and npm test (dev/private-redis.ts)', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('uses the Redis at REDIS_URL as is when it answers', async () => {
    const url = process.env.REDIS_URL as string; // set by the jest globalSetup
    const redis = await redisForRun(url);
    expect(redis).toMatchObject({ url, private: false });
    await redis.stop();
    expect(await redisAnswers(url)).toBe(true);
  });

  it('starts a private redis-server on a free port when none answers, and stops it', async () => {
    const dead = `redis://127.0.0.1:${await deadPort()}`;
    const redis = await redisForRun(dead);
    expect(redis.private).toBe(true);
    expect(redis.url).not.toBe(dead);
    expect(await redisAnswers(redis.url)).toBe(true);
    await redis.stop();
    expect(await redisAnswers(redis.url)).toBe(false);
  });

  it('without redis-server on PATH fails at once naming the install for Debian/Ubuntu and macOS', async () => {
    const emptyBin = mkdtempSync(join(tmpdir(), 'no-redis-bin-'));
    process.env.PATH = emptyBin;
    const dead = `redis://127.0.0.1:${await deadPort()}`;
    // "At once": a dead port is refused, never waited on; jest's own timeout is the only clock here (no upper bound a loaded machine could pass).
    const failure = await redisForRun(dead).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RedisUnavailableError);
    expect((failure as Error).message).toContain(`No Redis answers at ${dead}`);
    expect((failure as Error).message).toContain('sudo apt-get install redis-server');
    expect((failure as Error).message).toContain('brew install redis');
  });
});
