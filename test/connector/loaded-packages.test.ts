import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliNodeArgs } from '../support/cli-process';
import { META } from '../../connector/shop/order-meta';
import { startFakeWooCommerce, type RunningFakeWoo } from '../support/fake-woocommerce';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox';
import { deleteKeys, eventually, portugueseOrder, rawTestConfig, REDIS_URL, WEBHOOK_SECRET } from './support/harness';

/**
 * Issue 29 (the connector's memory): what a running connector holds in its heap is, first of all,
 * the code it loaded. The month's spreadsheet and PDF (exceljs, pdfkit), the e-mail (nodemailer)
 * and the queue board (Bull Board) are about 18 MB of heap that the order path never uses: they are
 * loaded when first used, not at start. Checked on the real command in its own process, which
 * reports the packages it has loaded when told (SIGUSR2, through a preloaded probe).
 */
const LAZY = ['exceljs', 'pdfkit', 'nodemailer', '@bull-board/api', '@bull-board/express'];

const PROBE = `
const { writeFileSync } = require('node:fs');
process.on('SIGUSR2', () => {
  const packages = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
    if (match) packages.add(match[1]);
  }
  writeFileSync(process.env.LOADED_PACKAGES_FILE, JSON.stringify([...packages].sort()));
});
`;

describe('issue 29: the packages a connector loads for its orders', () => {
  let sandbox: RunningSandbox;
  let woo: RunningFakeWoo;
  let dir: string;
  const prefix = `mft-loaded-${process.pid}-${Date.now()}`;
  beforeAll(async () => {
    sandbox = await startTestSandbox({});
    woo = await startFakeWooCommerce({});
    dir = mkdtempSync(join(tmpdir(), 'mf-loaded-'));
  });
  afterAll(async () => {
    await woo.close();
    await sandbox.close();
    await deleteKeys(REDIS_URL, prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it("an order invoiced end to end loads no month file, PDF, e-mail or board package; the board loads its own on its first page", async () => {
    const config = join(dir, 'tenants.json');
    writeFileSync(config, JSON.stringify(rawTestConfig({ prefix, wooOrigin: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret, baseUrl: sandbox.baseUrl })));
    const probe = join(dir, 'probe.js');
    writeFileSync(probe, PROBE);
    const listed = join(dir, 'packages.json');
    const child = spawn(process.execPath, ['--require', probe, ...cliNodeArgs(['connector', 'all', '--config', config, '--port', '0'])], {
      env: { ...process.env, LOG_LEVEL: 'info', LOADED_PACKAGES_FILE: listed },
    });
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const loaded = async (): Promise<string[]> => {
      rmSync(listed, { force: true });
      child.kill('SIGUSR2');
      return eventually('the probe lists the loaded packages', () => {
        try {
          return JSON.parse(readFileSync(listed, 'utf8')) as string[];
        } catch {
          return undefined;
        }
      });
    };
    try {
      const origin = await eventually('the HTTP side listening', () => /"origin":"(http:\/\/[^"]+)"/.exec(log)?.[1], 60_000);
      await eventually('/readyz answers 200', async () => (await fetch(`${origin}/readyz`)).status === 200, 30_000);
      for (const topic of ['order.created', 'order.updated']) woo.addWebhook({ topic, status: 'active', delivery_url: `${origin}/webhooks/woocommerce/shop1`, secret: WEBHOOK_SECRET });
      const order = woo.createOrder(portugueseOrder(), 'checkout');
      await eventually('the invoice number on the order', () => woo.meta(Number(order.id), META.documentNumber), 60_000);

      const afterOrder = await loaded();
      expect(afterOrder).toEqual(expect.arrayContaining(['bullmq', 'ioredis', 'undici', 'zod']));
      expect(afterOrder.filter((name) => LAZY.includes(name))).toEqual([]);

      const board = await fetch(`${origin}/admin/queues`, { headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` } });
      expect(board.status).toBe(200);
      expect(await board.text()).toContain('/admin/queues');
      expect(await loaded()).toEqual(expect.arrayContaining(['@bull-board/api', '@bull-board/express']));
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  }, 120_000);
});
