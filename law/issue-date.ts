import { warning, type MappingNote } from './mapping-errors';

/** What a late-issue note is about: an order's invoice or a refund's credit note. */
export interface IssueSubject {
  subject: 'order' | 'refund';
  id: number | string;
}
import { addDays, localDateTime } from './shop-date';

/**
 * When a document is issued. Its legal date is the day it is issued (CIVA art. 36(1)(a): within five
 * business days of the sale), never the order's older date: the service also refuses a date before
 * the series' latest closed document, so a backlog dated by the order would fail for good.
 */
export interface IssueOptions {
  /** The document date, yyyy-mm-dd. Default: today in the shop's time zone. */
  issueDate?: string;
  /** A credit note's invoice date: the credit note is never dated before its invoice. */
  invoiceDate?: string;
  /**
   * A credit note's invoice buyer: the tax number (and its country) the invoice carried, as the
   * service holds it (its Client NIF). The credit note names that buyer, whatever the order gives now
   * (CIVA art. 29(7), 78(2)); without it the buyer is read from the order.
   */
  invoiceBuyer?: { nif: string; countryCode?: string };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function issueDay(options: IssueOptions | undefined, timeZone: string): string {
  const given = options?.issueDate;
  if (given !== undefined && !DAY.test(given)) throw new RangeError(`issueDate must be yyyy-mm-dd, not "${given}"`);
  const day = given ?? localDateTime(new Date(), timeZone).date;
  const floor = options?.invoiceDate;
  return floor !== undefined && DAY.test(floor) && floor > day ? floor : day;
}

/** Monday-to-Friday days after `from` up to and including `to` (public holidays not counted out). */
export function businessDaysBetween(from: string, to: string): number {
  let days = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days += 1;
  }
  return days;
}

/** A document issued more than five business days after its sale says so on the order. */
export function lateIssueNote(what: IssueSubject, saleDate: string, issueDate: string): MappingNote | undefined {
  if (saleDate >= issueDate) return undefined;
  // Counting past 5 is enough to know; an order years old must not loop over every day.
  const late = saleDate < addDays(issueDate, -30) ? 30 : businessDaysBetween(saleDate, issueDate);
  if (late <= 5) return undefined;
  return warning('issued-late', { ...what, sale: saleDate, issued: issueDate });
}

/** The day `count` Monday-to-Friday days after `from` (public holidays not counted out). */
export function addBusinessDays(from: string, count: number): string {
  let day = from;
  for (let left = count; left > 0; ) {
    day = addDays(day, 1);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day;
}

export interface InvoiceDeadline {
  /** The last day to issue the invoice, yyyy-mm-dd. */
  due: string;
  /** Why: the article and the event it counts from (English). */
  basis: string;
  /** The same for the messages: an advance payment's same-day rule, or five business days from the sale. */
  rule: 'advance' | 'sale';
  /** The day the rule counts from. */
  from: string;
}

/**
 * When an order's invoice is due. Paid before it was completed (delivered), the payment is an
 * advance: the invoice is due that same day (CIVA art. 36(1)(c)). Otherwise within five business
 * days of the sale (art. 36(1)(a)), counted from completion or, failing that, creation.
 */
export function invoiceDeadline(days: { paid?: string; completed?: string; created: string }): InvoiceDeadline {
  if (days.paid && (!days.completed || days.paid < days.completed)) {
    return {
      due: days.paid,
      basis: `paid on ${days.paid} before delivery: an advance payment's invoice is due the day it is received (CIVA art. 36(1)(c))`,
      rule: 'advance',
      from: days.paid,
    };
  }
  const sale = days.completed ?? days.paid ?? days.created;
  return { due: addBusinessDays(sale, 5), basis: `sold on ${sale}: five business days (CIVA art. 36(1)(a))`, rule: 'sale', from: sale };
}

/**
 * The day the tax became due (CIVA art. 8(1)), whose VAT rates the document carries (art. 18(9)) and
 * whose exchange rate converts it (Despacho Normativo 44/86: the rate of the day the tax is due):
 * (c) a payment received before the invoice makes it due that day; (b) an invoice issued within its
 * deadline (art. 36(1)) makes it due the day it is issued; (a) one issued after, the deadline's last
 * day. The earliest that applies: a shop's order paid at checkout is its payment day, an unpaid order
 * invoiced in time (cash on delivery, a bank transfer listed in invoiceUnpaidStatuses) its invoice's
 * day, a late one its deadline.
 */
export function taxDueDay(days: { paid?: string; completed?: string; created: string }, issued: string): string {
  const candidates = [issued, invoiceDeadline(days).due, ...(days.paid ? [days.paid] : [])];
  return candidates.sort()[0];
}

/** An invoice issued after its deadline says so on the order, from the first day late. */
export function lateInvoiceNote(what: IssueSubject, deadline: InvoiceDeadline, issueDate: string): MappingNote | undefined {
  if (issueDate <= deadline.due) return undefined;
  return warning('invoice-late', { ...what, issued: issueDate, due: deadline.due, basis: deadline.rule, day: deadline.from });
}
