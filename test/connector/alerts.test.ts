import { englishWords } from '../support/english-words';
import { PLATFORMS } from '../../platforms/registry';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import IORedis from 'ioredis';
import type { LedgerRef } from '../../connector/core/ledger';
import { describeOrder, describeWebhooks, textOf } from '../../connector/alerts/digest';
import { personNeeded } from '../../connector/pipeline/problems';
import { eventually, REDIS_URL, startHarness, type Harness } from './support/harness';
import { sweepReport } from './support/sweep-report';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../support/smtp-receiver';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

/** A chat-style incoming webhook: records every JSON POST; answers 500 to the first `failures`. */
async function startReceiver(failures: number): Promise<{ url: string; received: Record<string, unknown>[]; attempts: () => number; close(): Promise<void> }> {
  const received: Record<string, unknown>[] = [];
  let attempts = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      attempts += 1;
      if (attempts <= failures) return void res.writeHead(500).end('try later');
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hooks/T000/B000/secret`, received, attempts: () => attempts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What the pipeline does when an order needs a person: ledger state with its reason, then the attention list. */
async function needsPerson(h: Harness, orderId: number, state: 'duplicate-unknown-id' | 'alert-no-number', detail: string): Promise<void> {
  const ref: LedgerRef = { tenant: 'shop1', orderId, purpose: 'invoice' };
  const ledger = h.connector?.ledger;
  if (!ledger) throw new Error('no connector');
  await ledger.record(ref, { state, detail, externalId: `wc-${orderId}`, alertAt: Date.now() });
  await ledger.markAttention(ref);
}

describe('alerts: a person is told by e-mail and chat webhook, batched, rate-limited, nothing lost or repeated', () => {
  let smtp: SmtpReceiver;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let h: Harness;
  beforeAll(async () => {
    smtp = await startSmtpReceiver({ user: 'alerts@loja.pt', password: 'smtp-pw' });
    // The chat side is down for the whole first round (3 tries): the digest must survive it.
    receiver = await startReceiver(3);
    h = await startHarness({
      tenant: {
        alerts: {
          digestSeconds: 1,
          maxMessagesPerHour: 3,
          email: { smtp: { host: '127.0.0.1', port: smtp.port, user: 'alerts@loja.pt', password: { env: 'SMTP_PASSWORD_NOT_SET' } }, from: 'connector@loja.pt', to: ['dono@loja.pt', 'contabilista@loja.pt'] },
          webhook: { url: receiver.url },
        },
      },
      env: { SMTP_PASSWORD_NOT_SET: 'smtp-pw' },
    });
  });
  afterAll(async () => {
    await h.close();
    await smtp.close();
    await receiver.close();
  });

  it('a disabled shop webhook, then two orders needing a person -> told by e-mail at once, by chat once it answers; order, reason, fix, a link to the order page in the console in each', async () => {
    // The sweep judges webhooks by where they deliver (server.publicUrl): ours are active for both topics, one more is disabled.
    const ours = `${h.config.server.publicUrl}/webhooks/woocommerce/shop1`;
    for (const topic of ['order.created', 'order.updated']) h.woo.addWebhook({ topic, status: 'active', delivery_url: ours, secret: 'x' });
    h.woo.addWebhook({ topic: 'order.updated', status: 'disabled', delivery_url: ours, secret: 'x' });
    expect((await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: ADMIN })).status).toBe(200);
    await needsPerson(h, 7001, 'duplicate-unknown-id', 'a retried create came back DocumentIsADuplicate');
    await needsPerson(h, 7002, 'alert-no-number', 'no number after 7 Get Document calls');

    const first = bodyOf(await eventually('the first e-mail', () => smtp.mails[0], 90_000));
    expect(smtp.mails[0].to).toEqual(['dono@loja.pt', 'contabilista@loja.pt']);
    expect(first).toContain(': 1 shop webhook problem');
    expect(first).toMatch(/Webhook \d+ order\.updated: disabled/);
    expect(first).toContain('back to Active');
    // The two orders come together in the next digest, not one message each.
    const second = bodyOf(await eventually('the second e-mail', () => smtp.mails[1], 90_000));
    expect(second).toContain(': 2 orders need your attention');
    expect(second).toContain('Order #7001, invoice: issued with an unknown id since');
    // The time on the shop's clock (the harness's shop is in Lisbon), never a UTC stamp.
    expect(second).toMatch(/issued with an unknown id since \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}\r?\n/);
    expect(second).not.toContain('UTC');
    expect(second).toContain('press "Attach document" on the order\'s page and give its id');
    expect(second).toContain('Order page: http://connector.test/console/shop1/orders/7001');
    expect(second).toContain('Order #7002, invoice: issued without a number since');
    expect(second).toContain('Why: no number after 7 Get Document calls');
    expect(second).toContain('Order page: http://connector.test/console/shop1/orders/7002');
    expect(second).not.toContain('/admin/api');
    expect(second).not.toContain('Webhook');

    // The receiver refused the whole first round (3 tries); nothing was dropped: the next round carries it all.
    const message = await eventually('the chat message', () => receiver.received[0], 90_000);
    expect(receiver.attempts()).toBe(4);
    expect(message.text).toEqual(expect.stringContaining('Order #7001, invoice'));
    expect(message).toMatchObject({
      tenant: 'shop1',
      orders: [
        { orderId: 7001, purpose: 'invoice', state: 'duplicate-unknown-id', link: 'http://connector.test/console/shop1/orders/7001' },
        { orderId: 7002, purpose: 'invoice', state: 'alert-no-number', reason: expect.stringContaining('no number') },
      ],
      webhooks: [{ topic: 'order.updated', status: 'disabled', fix: expect.stringContaining('back to Active') }],
      more: 0,
    });
    // Counted once the delivery is on record (just after the receiver has it).
    const metrics = await eventually('the sent chat message counted', async () => {
      const text = await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_alert_messages_total');
      return text?.includes('magnifinance_alert_messages_total{tenant="shop1",channel="webhook",outcome="sent"} 1') ? text : undefined;
    });
    expect(metrics).toContain('magnifinance_alert_messages_total{tenant="shop1",channel="webhook",outcome="failed"} 3');
    expect(metrics).toContain('magnifinance_alert_messages_total{tenant="shop1",channel="email",outcome="sent"} 2');
  }, 240_000);

  it('after a restart only what is new is told; past the hourly cap of a channel the rest waits, counted as pending', async () => {
    await h.connector?.close();
    const restarted = await h.startConnector('all');
    await needsPerson(h, 7003, 'alert-no-number', 'no number after 7 Get Document calls');
    const third = bodyOf(await eventually('the third e-mail', () => smtp.mails[2], 90_000));
    expect(third).toContain(': 1 order needs your attention');
    expect(third).toContain('Order #7003');
    expect(third).not.toContain('Order #7001');
    expect(third).not.toContain('Webhook');
    const chat = await eventually('the second chat message', () => receiver.received[1], 90_000);
    expect((chat.orders as { orderId: number }[]).map((o) => o.orderId)).toEqual([7003]);
    expect(chat.webhooks).toEqual([]);

    // E-mail has sent its 3 messages of the hour; the chat webhook has sent 2 and still may.
    await needsPerson(h, 7004, 'alert-no-number', 'x');
    const chat2 = await eventually('the third chat message', () => receiver.received[2], 90_000);
    expect((chat2.orders as { orderId: number }[]).map((o) => o.orderId)).toEqual([7004]);
    await eventually('order 7004 pending on e-mail only', async () => {
      const pending = await restarted.metrics.registry.getSingleMetricAsString('magnifinance_alerts_pending');
      return pending.includes('magnifinance_alerts_pending{tenant="shop1",channel="email"} 1') && pending.includes('magnifinance_alerts_pending{tenant="shop1",channel="webhook"} 0');
    }, 90_000);
    expect(smtp.mails).toHaveLength(3);
  }, 360_000);
});

/** The mail's text with quoted-printable soft breaks and the bullet undone. */
/** What the owner reads: the subject, then the text part as a mail client decodes it. */
function bodyOf(mail: ReceivedMail): string {
  return `${mail.subject}\n${mail.text}`;
}

describe("alerts: other tenants' entries in the attention list never hide this tenant's", () => {
  it("12,000 older entries of another shop first -> this shop's order is still told", async () => {
    const receiver = await startReceiver(0);
    const h = await startHarness({ role: 'none', tenant: { alerts: { digestSeconds: 1, webhook: { url: receiver.url } } } });
    const redis = new IORedis(REDIS_URL);
    try {
      const old = Date.now() - 60_000;
      const others: (string | number)[] = [];
      for (let i = 0; i < 12_000; i++) others.push(old + i, `other-shop:${i}:invoice`);
      await redis.zadd(`${h.prefix}:attention`, ...others);
      await redis.zadd(`${h.prefix}:attention`, Date.now() - 10_000, 'shop1:7100:invoice');
      await h.startConnector('work');
      const message = await eventually('the chat message', () => receiver.received[0], 90_000);
      expect((message.orders as { orderId: number; state: string }[]).map((o) => o.orderId)).toEqual([7100]);
    } finally {
      redis.disconnect();
      await h.close();
      await receiver.close();
    }
  }, 120_000);
});

describe('an alert says what the order note and the console say', () => {
  it('uses the reason and fix the pipeline recorded when it flagged the order; the state table only words entries without one', () => {
    const ref = { tenant: 'shop1', orderId: 7025, purpose: 'invoice' };
    const flagged = describeOrder({ purpose: 'invoice', state: 'written-back', detail: 'FR A/9 differs by 0.01', action: 'Turn on Round tax at subtotal level' }, ref);
    expect(flagged).toEqual({ state: 'written-back', reason: 'FR A/9 differs by 0.01', fix: 'Turn on Round tax at subtotal level' });
    const older = describeOrder({ purpose: 'invoice', state: 'held', detail: 'no NIF' }, ref);
    expect(older).toEqual({ state: 'held', reason: 'no NIF', fix: 'Correct the order in WooCommerce and save it, then press "Try again" on the order\'s page.' });
    // In Portuguese, the English an older version recorded is quoted and labelled, never glued into a sentence.
    expect(describeOrder({ purpose: 'invoice', state: 'held', detail: 'no NIF' }, ref, 'pt')).toEqual({
      state: 'held',
      reason: 'Motivo registado: «no NIF».',
      fix: 'Corrija a encomenda no WooCommerce e guarde-a; depois carregue em «Tentar de novo» na página da encomenda.',
    });
  });
});

describe('alerts in the tenant\'s language (settings.language)', () => {
  const ref = { tenant: 'loja1', orderId: 7026, purpose: 'invoice' };
  const link = 'https://invoices.example.pt/console/loja1/orders/7026';

  it('a flagged order: the Portuguese words of its problem, the order page and its button; the digest and its webhook findings in Portuguese', () => {
    const needed = personNeeded(ref, { code: 'gave-up', attempts: 10, answer: { from: 'network', to: 'service', code: 'ECONNREFUSED' }, message: 'connect ECONNREFUSED' }, 'failed');
    const entry = { purpose: 'invoice', state: 'failed' as const, detail: needed.reason, action: needed.action, problem: JSON.stringify(needed.problem) };
    const pt = describeOrder(entry, ref, 'pt');
    expect(pt).toEqual({
      state: 'failed',
      reason: 'O conector desistiu ao fim de 10 tentativas. Não foi possível ligar à MagniFinance (ECONNREFUSED).',
      fix: 'Nada foi emitido duas vezes. O conector tenta de novo na próxima atualização da encomenda e na próxima sincronização; para tentar já, carregue em «Tentar de novo» na página da encomenda no conector.',
    });
    expect(describeOrder(entry, ref, 'en')).toEqual({ state: 'failed', reason: needed.reason, fix: needed.action });
    expect(needed.action).toContain('press "Try again" on the order\'s page');

    const webhooks = describeWebhooks(sweepReport({ inactiveWebhooks: [{ id: 4, topic: 'order.updated', status: 'disabled', deliveryUrl: 'https://x/webhooks/woocommerce/loja1' }], missingTopics: [] }), PLATFORMS.woocommerce, 'pt');
    // 10:00 UTC in July is 11:00 on the shop's clock in Lisbon (summer time): the message says the shop's time.
    const text = textOf({ tenant: 'loja1', lang: 'pt', timeZone: 'Europe/Lisbon', orders: [{ orderId: 7026, purpose: 'invoice', ...pt, link, since: '2026-07-23T10:00:00.000Z' }], webhooks, more: 2, attentionLink: 'https://invoices.example.pt/console/loja1' });
    expect(text.split('\n')).toEqual([
      '[Conector MagniFinance] loja1: 3 encomendas precisam da sua atenção; 1 problema nos webhooks da loja',
      '',
      '• Encomenda #7026, fatura: parada por erro desde 23/07/2026, 11:00',
      `  Porquê: ${pt.reason}`,
      `  O que fazer: ${pt.fix}`,
      `  Página da encomenda: ${link}`,
      '… e mais 2 na próxima mensagem; todas estão na página da loja: https://invoices.example.pt/console/loja1',
      '• Webhook 4 order.updated: desativado (https://x/webhooks/woocommerce/loja1)',
      '  O que fazer: Em WooCommerce > Definições > Avançado > Webhooks, volte a pôr o webhook 4 (order.updated) no estado Ativo; a sincronização apanha as encomendas que lhe escaparam.',
    ]);
    expect(englishWords(text)).toEqual([]);
    expect(text).not.toContain('/admin/api');
  });
});

describe("alerts tell times on the shop's clock (settings.mapping.shopTimeZone)", () => {
  const order = { orderId: 7031, purpose: 'invoice', state: 'held', reason: 'r', fix: 'f', link: 'https://invoices.example.pt/console/loja1/orders/7031', since: '2026-07-23T10:00:00.000Z' };

  it.each([
    ['Europe/Lisbon', 'en', '• Order #7031, invoice: held since 23/07/2026, 11:00'],
    ['Atlantic/Azores', 'pt', '• Encomenda #7031, fatura: retida desde 23/07/2026, 10:00'],
    ['Atlantic/Madeira', 'pt', '• Encomenda #7031, fatura: retida desde 23/07/2026, 11:00'],
    ['America/Sao_Paulo', 'en', '• Order #7031, invoice: held since 23/07/2026, 07:00'],
  ] as const)('an order waiting since 10:00 UTC, in a shop in %s (%s)', (timeZone, lang, line) => {
    const text = textOf({ tenant: 'loja1', lang, timeZone, orders: [order], webhooks: [], more: 0, attentionLink: 'https://invoices.example.pt/console/loja1' });
    expect(text.split('\n')[2]).toBe(line);
  });

  it("refused deliveries: the last one's time on the shop's clock, in both languages", () => {
    const report = sweepReport({ inactiveWebhooks: [], missingTopics: [], refusedDeliveries: [{ reason: 'bad-signature', count: 3, lastAt: '2026-12-31T23:30:00.000Z' }] });
    // In Lisbon it is still the last day of the year; in Madrid (UTC+1) it is already the new year.
    expect(describeWebhooks(report, PLATFORMS.woocommerce, 'en', 'Europe/Lisbon')[0].fix).toMatch(/^3 deliveries refused \(the last on 31\/12\/2026, 23:30\)\. /);
    expect(describeWebhooks(report, PLATFORMS.woocommerce, 'pt', 'Europe/Madrid')[0].fix).toMatch(/^3 entregas recusadas \(a última a 01\/01\/2027, 00:30\)\. /);
  });
});
