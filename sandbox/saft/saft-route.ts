import { z } from 'zod';
import type { AdminAnswer } from '../admin-api';
import type { SandboxStore } from '../store';
import { saftBytes, saftSalesFile } from './saft-export';

/**
 * GET /_sandbox/saft?accountTaxId=&month=yyyy-mm[&encoding=utf-8|windows-1252]: the month's SAF-T
 * (PT) sales file of an account, as its user would export it from the back-office and hand to the
 * accountant. Without accountTaxId, the only account's (several accounts: 400 naming them).
 */
const SaftQuery = z.object({
  accountTaxId: z.string().regex(/^\d{9}$/, { message: 'must be the account\'s 9-digit tax id' }).optional(),
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'must be yyyy-mm' }),
  encoding: z.enum(['utf-8', 'windows-1252']).default('utf-8'),
});

export function saftAnswer(store: SandboxStore, query: URLSearchParams): AdminAnswer {
  const parsed = SaftQuery.safeParse(Object.fromEntries(query));
  if (!parsed.success) return { status: 400, body: { error: 'Invalid query', issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) } };
  const { accountTaxId, month, encoding } = parsed.data;
  const accounts = store.state.accounts;
  const account = accountTaxId === undefined ? (accounts.length === 1 ? accounts[0] : undefined) : store.accountByTaxId(accountTaxId);
  if (!account) {
    const known = accounts.map((a) => a.taxId).join(', ');
    return { status: accountTaxId === undefined ? 400 : 404, body: { error: accountTaxId === undefined ? `Say which account: accountTaxId= one of ${known}` : `No account with tax id ${accountTaxId} (known: ${known})` } };
  }
  const xml = saftSalesFile({ account, documents: store.documents(), month, now: store.now() });
  const charset = encoding === 'utf-8' ? 'UTF-8' : 'windows-1252';
  return { status: 200, body: null, file: { contentType: `application/xml; charset=${charset}`, name: `SAFT-PT_${account.taxId}_${month}.xml`, bytes: saftBytes(xml, encoding) } };
}
