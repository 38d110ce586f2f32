/**
 * Redis for `npm run demo` and `npm test` on a developer's machine. When something answers PING at
 * REDIS_URL it is used as is. Otherwise, when `redis-server` is installed, a private one is started
 * on a free port with its files in a temp dir (no persistence) and stopped at exit. Otherwise this
 * fails at once with the one-line install for Debian/Ubuntu and macOS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export const REDIS_INSTALL_HINT =
  'Install Redis and run the command again (a private redis-server is then started for it):\n' +
  '  Debian/Ubuntu: sudo apt-get install redis-server\n' +
  '  macOS:         brew install redis\n' +
  'or point REDIS_URL at a running Redis (redis://host:port).';

export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export interface RedisForRun {
  url: string;
  /** true when this process started it (and stop() ends it) */
  private: boolean;
  stop(): Promise<void>;
}

/** Whether something at `url` answers a Redis PING (an auth error also counts as an answer). */
export function redisAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(/^(\+PONG|-NOAUTH|-WRONGPASS)/.test(data.toString('latin1'))));
  });
}

export function findRedisServer(path = process.env.PATH ?? ''): string | undefined {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'))
    .find((candidate) => existsSync(candidate));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPrivateRedis(binary: string): Promise<RedisForRun> {
  const dir = mkdtempSync(join(tmpdir(), 'private-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `redis://127.0.0.1:${port}`;
  const killAtExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killAtExit);
  const stop = async (): Promise<void> => {
    process.removeListener('exit', killAtExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await redisAnswers(url, 200)) return { url, private: true, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new RedisUnavailableError(`redis-server (${binary}) did not start on port ${port}: ${stderr.trim() || 'no answer within 5 s'}`);
}

/** The Redis a demo or test run uses: the one at `url` if it answers, else a private one. */
export async function redisForRun(url = process.env.REDIS_URL ?? DEFAULT_REDIS_URL): Promise<RedisForRun> {
  if (await redisAnswers(url)) return { url, private: false, stop: async () => undefined };
  const binary = findRedisServer();
  if (!binary) throw new RedisUnavailableError(`No Redis answers at ${url} and redis-server is not installed.\n${REDIS_INSTALL_HINT}`);
  return startPrivateRedis(binary);
}
