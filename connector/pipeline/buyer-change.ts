import type { Logger } from 'pino';
import { CONSUMER_NIF } from '../../client/nif';
import { resolveBuyer } from '../../law/buyer-identity';
import { platformOf } from '../../platforms/registry';
import type { LedgerEntry, LedgerRef } from '../core/ledger';
import { buyerRecord, buyerRecordFor, META, metaValue } from '../shop/order-meta';
import { comparableNif } from './buyer-record';
import { flagForPerson, type NeedsPersonDeps } from './needs-person';
import { restoreFromOrder } from './order-memory';
import { personNeeded } from './problems';
import type { TenantRuntime } from './tenant-runtime';

/**
 * A NIF added (or corrected) on an order after its invoice: the invoice stays, as every certified
 * document does; the owner is told once, on the order (a note in the shop's language), in the
 * console's attention list and its alerts, that a credit note and a new invoice are a person's
 * choice. Nothing is ever issued here.
 *
 * What the invoice carried is recorded when it is numbered (the ledger's buyerNif, from the
 * service's own copy) and written on the order with its number (META.buyer), so a lost ledger
 * loses nothing: the order keeps it.
 */

/**
 * The review of an invoiced order's buyer (the `review` job): the order as the shop has it now, as
 * the mapping would read its buyer, against the invoice's. Told once per buyer: the one told is kept
 * in the ledger and on the order. Returns what it found, for the job's log (undefined: nothing to judge).
 */
export async function reviewBuyer(
  deps: NeedsPersonDeps,
  tenant: TenantRuntime,
  orderId: number,
  raw: unknown,
  known: LedgerEntry | undefined,
  now: number,
  log: Logger,
): Promise<string | undefined> {
  const ref: LedgerRef = { tenant: tenant.config.id, orderId, purpose: 'invoice' };
  const sale = platformOf(tenant.config).saleOf(raw, tenant.mapping, tenant.config);
  const meta = sale.attributes;
  const record = buyerRecord(meta);
  // A lost ledger is rebuilt from the order first: the problem is then recorded on a written-back entry.
  const invoice = known ?? (record ? await restoreFromOrder(deps.ledger, ref, meta, now) : null) ?? undefined;
  const issuedTo = invoice?.buyerNif ?? record?.nif;
  const number = invoice?.documentNumber ?? metaValue(meta, META.documentNumber);
  if (!issuedTo || typeof number !== 'string' || number === '' || invoice?.state !== 'written-back') return undefined;
  const given = sale.taxNumbers.find((taxNumber) => taxNumber.value.trim() !== '')?.value.trim();
  if (!given) return undefined;
  const buyer = resolveBuyer(sale, tenant.mapping, []);
  const company = sale.billing.company.trim();
  // Another valid tax number than the invoice's; or a company whose number is not valid (the mapping would hold it) where the invoice went to the final consumer.
  const otherNumber = buyer.kind !== 'consumer' && comparableNif(buyer.nif) !== comparableNif(issuedTo);
  const companyNow = buyer.kind === 'consumer' && buyer.hold !== undefined && company !== '' && comparableNif(issuedTo) === CONSUMER_NIF;
  if (!otherNumber && !companyNow) return 'the buyer is the invoice\'s';
  const told = comparableNif(given);
  if ((invoice.buyerToldNif ?? record?.told) === told) return 'the new buyer was told already';
  const problem = personNeeded(ref, { code: 'buyer-changed', number, invoiceNif: issuedTo, orderNif: given.slice(0, 40), ...(companyNow ? { company: company.slice(0, 200) } : {}) });
  await flagForPerson(deps, tenant, ref, problem, now, log, invoice);
  await deps.ledger.record(ref, { buyerToldNif: told }, now);
  // On the order too: its echo (and every later update with the same NIF) then costs no review, and a lost ledger does not tell it again.
  await tenant.shop.updateOrderMeta(orderId, [{ key: META.buyer, value: buyerRecordFor(issuedTo, record?.keys ?? tenant.mapping.nifMetaKeys, told) }]);
  return `the order names buyer ${told}, its invoice ${issuedTo}: a person was told`;
}
