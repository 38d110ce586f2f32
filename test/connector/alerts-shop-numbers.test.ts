import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../connector/config/load-config';
import { ConnectorMetrics } from '../../connector/core/metrics';
import type { LedgerRef } from '../../connector/core/ledger';
import { startConnector, type RunningConnector } from '../../connector/main/runtime';
import { FakeShopify, type JsonObject } from '../support/fake-shopify';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../support/smtp-receiver';
import { TAXES_INCLUDED } from '../platforms/shopify/fixtures/orders';
import { eventually, quietLogger, rawTestConfig } from './support/harness';

/*
 * A Shopify merchant knows order 5962412736508 as "#1001": the alert's e-mail names it so, asked
 * to the store once per digest. A store that is down or does not answer in the digest's short wait
 * delays nothing: the alert goes with "#<id>". (WooCommerce's "#<id>" is alerts.test.ts's.)
 */

const ID = Number(TAXES_INCLUDED.legacyResourceId);

/** A store that takes the connection and never answers (its own time-out is far longer than the digest's wait). */
async function startSilentStore(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("a Shopify store's alerts name the order as the merchant knows it (#1001)", () => {
  const store = new FakeShopify();
  let silent: Awaited<ReturnType<typeof startSilentStore>>;
  let smtp: SmtpReceiver;
  let connector: RunningConnector;

  beforeAll(async () => {
    await store.start();
    store.addOrder(TAXES_INCLUDED);
    silent = await startSilentStore();
    smtp = await startSmtpReceiver({ user: 'alerts@loja.pt', password: 'smtp-pw' });
    const raw = rawTestConfig({ prefix: `mft-${randomBytes(6).toString('hex')}`, wooOrigin: 'http://unused.test', consumerKey: 'x', consumerSecret: 'y', baseUrl: 'http://127.0.0.1:9' });
    const base = (raw.tenants as JsonObject[])[0];
    delete base.shop;
    const tenant = (id: string, adminUrl: string): JsonObject => ({
      ...structuredClone(base),
      id,
      name: id,
      platform: 'shopify',
      shopify: { shopDomain: store.shopDomain, adminUrl, accessToken: store.accessToken, clientSecret: store.clientSecret, timeoutMs: 600_000 },
      settings: { language: 'pt', goLiveAt: '2030-01-01T00:00:00Z', onCancelled: 'ignore', mapping: { externalIdPrefix: `${id}-`, shopTimeZone: 'Europe/Lisbon' } },
      alerts: { digestSeconds: 1, email: { smtp: { host: '127.0.0.1', port: smtp.port, user: 'alerts@loja.pt', password: { env: 'SMTP_PASSWORD' } }, from: 'connector@loja.pt', to: [`dono@${id}.pt`] } },
    });
    // The store up; a store down (nothing listens); a store that never answers.
    raw.tenants = [tenant('loja', store.url), tenant('loja-em-baixo', 'http://127.0.0.1:9'), tenant('loja-calada', silent.url)];
    connector = await startConnector(parseConfig(raw, 'tenants.yaml', { SMTP_PASSWORD: 'smtp-pw' }), { role: 'work', logger: quietLogger(), metrics: new ConnectorMetrics({ defaultMetrics: false }) });
  });
  afterAll(async () => {
    await connector.close();
    await smtp.close();
    await silent.close();
    await store.close();
  });

  /** What the pipeline does when an order needs a person: ledger state with its reason, then the attention list. */
  async function needsPerson(tenant: string): Promise<void> {
    const ref: LedgerRef = { tenant, orderId: ID, purpose: 'invoice' };
    await connector.ledger.record(ref, { state: 'alert-no-number', detail: 'no number after 7 Get Document calls', externalId: `${tenant}-${ID}`, alertAt: Date.now() });
    await connector.ledger.markAttention(ref);
  }

  const mailTo = (tenant: string) => (): ReceivedMail | undefined => smtp.mails.find((mail) => mail.to.includes(`dono@${tenant}.pt`));

  it('the e-mail says "Encomenda #1001", never the id; the link to the order page keeps the id', async () => {
    expect(TAXES_INCLUDED.name).toBe('#1001');
    await needsPerson('loja');
    const mail = await eventually('the alert e-mail', mailTo('loja'), 90_000);
    expect(mail.text).toContain('• Encomenda #1001, fatura: emitida sem número desde ');
    expect(mail.text).not.toContain(`#${ID}`);
    expect(mail.text).toContain(`Página da encomenda: http://connector.test/console/loja/orders/${ID}`);
  }, 120_000);

  it.each(['loja-em-baixo', 'loja-calada'])('%s: the alert still goes, the order named "#<id>"', async (tenant) => {
    await needsPerson(tenant);
    const mail = await eventually('the alert e-mail', mailTo(tenant), 90_000);
    expect(mail.text).toContain(`• Encomenda #${ID}, fatura: emitida sem número desde `);
  }, 120_000);
});
