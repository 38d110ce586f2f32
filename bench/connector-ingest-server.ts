/**
 * Child process of the ingest benchmark: either the connector's HTTP side or a naive handler
 * (Express + HMAC + queue.add, what one would write first), on the same Redis. Prints
 * "listening <port>" when ready; on SIGTERM prints "peak-rss <MB>" and exits.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import pino from 'pino';
import { parseConfig } from '../connector/config/load-config';
import { startConnector } from '../connector/main/runtime';
import { BENCH_SECRET, benchConnectorConfig, peakRssMb, REDIS_URL } from './connector-support';

async function main(): Promise<void> {
  const [mode, prefix, portText] = process.argv.slice(2);
  const port = Number(portText);
  let close: () => Promise<void>;
  if (mode === 'connector') {
    const config = parseConfig(
      benchConnectorConfig({ prefix, port, shopUrl: 'http://127.0.0.1:1', consumerKey: 'ck', consumerSecret: 'cs', sandboxBaseUrl: 'http://127.0.0.1:1/api/v1.1', finalizeDelayMs: 10_000 }),
      'bench',
      {},
    );
    const running = await startConnector(config, { role: 'serve', logger: pino({ level: 'warn' }) });
    close = running.close;
  } else {
    const redis = new IORedis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const queue = new Queue('documents', { connection: redis, prefix });
    const app = express();
    app.post('/webhooks/woocommerce/:tenant', express.raw({ type: () => true, limit: '2mb' }), async (req, res) => {
      const body = req.body as Buffer;
      const expected = createHmac('sha256', BENCH_SECRET).update(body).digest();
      const given = Buffer.from(req.get('x-wc-webhook-signature') ?? '', 'base64');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return void res.status(401).end();
      let order: { id: number };
      try {
        order = JSON.parse(body.toString('utf8')) as { id: number };
      } catch {
        return void res.status(400).end();
      }
      try {
        await queue.add('order', order);
        res.status(202).json({ ok: true });
      } catch {
        res.status(503).end();
      }
    });
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(port, '127.0.0.1', () => resolve(s));
    });
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await queue.close();
      redis.disconnect();
    };
  }
  process.stdout.write(`listening ${port}\n`);
  process.once('SIGTERM', () => {
    process.stdout.write(`peak-rss ${peakRssMb(process.pid)}\n`);
    void close().then(() => process.exit(0));
  });
}

void main();
