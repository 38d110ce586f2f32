import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeWooCommerce, type FakeWooOptions, type RunningFakeWoo } from '../../support/fake-woocommerce';
import type { ShopCredentials } from './n8n-harness';

/** A self-signed certificate for 127.0.0.1, made once per test file with openssl. */
let pair: { key: string; cert: string } | undefined;
function certificatePair(): { key: string; cert: string } {
  if (!pair) {
    const dir = mkdtempSync(join(tmpdir(), 'mf-n8n-shop-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      pair = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return pair;
}

export interface NodeShop {
  woo: RunningFakeWoo;
  /** For runNode's `shop` option: the MagniFinance: WooCommerce Shop API credential and the certificate to trust. */
  shop: { credentials: ShopCredentials; certificate: string };
  close(): Promise<void>;
}

/**
 * The fake WooCommerce over HTTPS (WooCommerce takes REST keys as Basic auth over SSL only), with
 * no echo deliveries unless asked: a test delivers what it means to.
 */
export async function startNodeShop(options: FakeWooOptions = {}): Promise<NodeShop> {
  const { key, cert } = certificatePair();
  const woo = await startFakeWooCommerce({ echoUpdates: false, ...options, tls: { key, cert } });
  return {
    woo,
    shop: { credentials: { url: woo.origin, consumerKey: woo.consumerKey, consumerSecret: woo.consumerSecret }, certificate: cert },
    close: () => woo.close(),
  };
}
