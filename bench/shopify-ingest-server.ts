/**
 * Child process of the Shopify ingest benchmark: the connector's HTTP side with one Shopify tenant
 * (its Admin API unreachable: the route never calls it). Prints "listening <port>" when ready; on
 * SIGTERM prints "peak-rss <MB>" and exits.
 */
import pino from 'pino';
import { parseConfig } from '../connector/config/load-config';
import { startConnector } from '../connector/main/runtime';
import { benchConnectorConfig, peakRssMb } from './connector-support';

export const SHOPIFY_BENCH_SECRET = 'shpss_bench_client_secret';
export const SHOPIFY_BENCH_DOMAIN = 'loja-bench.myshopify.com';

async function main(): Promise<void> {
  const [prefix, portText] = process.argv.slice(2);
  const port = Number(portText);
  const raw = benchConnectorConfig({ prefix, port, shopUrl: 'http://127.0.0.1:1', consumerKey: 'ck', consumerSecret: 'cs', sandboxBaseUrl: 'http://127.0.0.1:1/api/v1.1', finalizeDelayMs: 10_000 });
  const [tenant] = raw.tenants;
  const shopify = { id: tenant.id, platform: 'shopify', invoicing: tenant.invoicing, settings: { ...tenant.settings, onCancelled: 'ignore' }, shopify: { shopDomain: SHOPIFY_BENCH_DOMAIN, adminUrl: 'http://127.0.0.1:1', accessToken: 'shpat_bench', clientSecret: SHOPIFY_BENCH_SECRET } };
  const running = await startConnector(parseConfig({ ...raw, tenants: [shopify] }, 'bench', {}), { role: 'serve', logger: pino({ level: 'warn' }) });
  process.stdout.write(`listening ${port}\n`);
  process.once('SIGTERM', () => {
    process.stdout.write(`peak-rss ${peakRssMb(process.pid)}\n`);
    void running.close().then(() => process.exit(0));
  });
}

if (require.main === module) void main();
