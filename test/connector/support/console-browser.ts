import { chromium, type Browser } from 'playwright-core';
import { portugueseOrder } from './harness';

/** Debian's Chromium, as the console's browser tests drive it (CHROMIUM_PATH overrides). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** A company buyer whose NIF fails its check digit: the mapping holds the invoice. */
export function heldOrder(): ReturnType<typeof portugueseOrder> {
  return portugueseOrder({
    billing: { company: 'Costa & Filhos, Lda.', first_name: 'Rui', last_name: 'Costa', address_1: 'Av. da Liberdade 1', city: 'Lisboa', postcode: '1250-096', country: 'PT', email: 'rui@costa.pt' },
    meta: [{ key: '_billing_nif', value: '123456788' }],
  });
}
