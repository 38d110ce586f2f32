import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { LEDGER_SCRIPT_NAMES } from '../../connector/core/ledger';
import { redisWrites, scriptNames } from '../../bench/counts';

/**
 * Issue 29 (the cost of one order in Redis): the bench's call counter, preloaded into a process,
 * counts what it writes to Redis in bytes and each EVALSHA by its script's sha with the bytes of
 * that command; the bench names the scripts (the ledger's, the story's, BullMQ's).
 */
const REPO = join(__dirname, '..', '..');
const COUNTER = join(REPO, 'bench', 'call-counter.ts');

const bulk = (text: string): string => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
const command = (...args: string[]): string => `*${args.length}\r\n${args.map(bulk).join('')}`;

const recordSha = Object.entries(LEDGER_SCRIPT_NAMES).find(([, name]) => name === 'ledger record')?.[0] ?? '';
// A record whose values hold a multi-byte character and a '*' (the counter reads lengths in bytes).
const RECORD = command('evalsha', recordSha, '2', 'p:ledger:t:1:invoice', 'p:ledger-index:t:1', 'invoice', 'persist', 'state', 'created', 'detail', 'São * Tomé');
const HGETALL = command('hgetall', 'p:ledger:t:1:invoice');

/** Runs a process with the counter preloaded that writes `chunks` to `port`, and returns what the counter counted. */
function countedWrites(port: number, chunks: string[]): Promise<Record<string, number>> {
  const script = `
const { connect } = require('node:net');
const { createServer } = require('node:http');
const socket = connect(${port}, '127.0.0.1', () => {
  for (const chunk of ${JSON.stringify(chunks)}) socket.write(chunk);
  socket.end(() => {
    const server = createServer(() => undefined).listen(0, '127.0.0.1', async () => {
      const counts = await (await fetch('http://127.0.0.1:' + server.address().port + '/_bench/calls')).json();
      process.stdout.write(JSON.stringify(counts));
      server.close();
    });
  });
});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', 'ts-node/register/transpile-only', '--require', COUNTER, '-e', script], { cwd: REPO, env: { ...process.env, BENCH_REDIS_PORT: String(port), TS_NODE_TRANSPILE_ONLY: 'true' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out) as Record<string, number>);
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

describe('issue 29: the bench counts what the connector writes to Redis', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts bytes, and EVALSHAs by script with their bytes, in a pipeline of several commands', async () => {
    const pipeline = HGETALL + RECORD + HGETALL + RECORD;
    const counts = await countedWrites(port, [HGETALL, pipeline]);
    const sha = recordSha.slice(0, 8);
    expect(counts['redis writes']).toBe(2);
    expect(counts['redis bytes']).toBe(Buffer.byteLength(HGETALL) + Buffer.byteLength(pipeline));
    expect(counts[`evalsha ${sha}`]).toBe(2);
    expect(counts[`evalsha bytes ${sha}`]).toBe(2 * Buffer.byteLength(RECORD));
  });

  it('names the scripts, per document', () => {
    const names = scriptNames();
    expect(names.get(recordSha.slice(0, 8))).toBe('ledger record');
    expect([...names.values()]).toEqual(expect.arrayContaining(['magnifinanceAppendStories', 'bullmq moveToFinished', 'bullmq addStandardJob']));
    const sha = recordSha.slice(0, 8);
    expect(redisWrites({ 'redis bytes': 9000, [`evalsha ${sha}`]: 12, [`evalsha bytes ${sha}`]: 3000, 'evalsha 0123abcd': 2, 'evalsha bytes 0123abcd': 100 }, 2)).toEqual({
      bytes: 4500,
      evalshaByScript: { 'ledger record': { calls: 6, bytes: 1500 }, '0123abcd': { calls: 1, bytes: 50 } },
    });
  });
});
