import type { Lang, PerLang } from '../../messages/lang';
import { doctorSays } from './doctor-messages';
/**
 * What the doctor reports: one line per check, OK / WARN / FAIL, and under every WARN and FAIL the
 * fix in plain words. Only FAIL makes a tenant not ready; a check that could not run is a WARN that
 * says so ("could not check").
 */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export type CheckArea = 'shop' | 'webhooks' | 'invoicing' | 'orders' | 'redis';

/** A text in both languages; a plain string is the same in both (a version, a URL, a setting). */
export type Words = string | { en: string; pt: string };
/** The doctor's reader's language: the one Lang (messages/lang.ts). */
export type DoctorLang = Lang;

export function wordsIn(lang: DoctorLang, words: Words): string {
  return typeof words === 'string' ? words : words[lang];
}

/** "could not check: ..." in both languages. */
export function couldNotCheck(detail: Words): { en: string; pt: string } {
  return doctorSays('could-not-check', { detail });
}

export interface Check {
  area: CheckArea;
  /** Short name of what was checked ("REST key (read)"), in English. */
  name: string;
  status: CheckStatus;
  /** What was found, in plain words (English). */
  detail: string;
  /** What to do about it; present for every WARN and FAIL (English). */
  fix?: string;
  /** The same in Portuguese (the report's `--lang pt`). */
  pt?: { name: string; detail: string; fix?: string };
}

function check(area: CheckArea, status: CheckStatus, name: Words, detail: Words, fix?: Words): Check {
  return {
    area,
    name: wordsIn('en', name),
    status,
    detail: wordsIn('en', detail),
    ...(fix === undefined ? {} : { fix: wordsIn('en', fix) }),
    pt: { name: wordsIn('pt', name), detail: wordsIn('pt', detail), ...(fix === undefined ? {} : { fix: wordsIn('pt', fix) }) },
  };
}

export function ok(area: CheckArea, name: Words, detail: Words): Check {
  return check(area, 'ok', name, detail);
}

export function warn(area: CheckArea, name: Words, detail: Words, fix: Words): Check {
  return check(area, 'warn', name, detail, fix);
}

export function fail(area: CheckArea, name: Words, detail: Words, fix: Words): Check {
  return check(area, 'fail', name, detail, fix);
}

/** A check's words in `lang`. */
export function checkWords(lang: DoctorLang, c: Check): { name: string; detail: string; fix?: string } {
  const english = { name: c.name, detail: c.detail, fix: c.fix };
  const said: PerLang<{ name: string; detail: string; fix?: string }> = { en: english, pt: c.pt ?? english };
  return said[lang];
}

/** A dry-run order's document type and notes in `lang` (the English ones when it has no Portuguese). */
export function dryRunWords(lang: DoctorLang, order: DryRunOrder): { documentType?: string; notes: string[] } {
  const english = { documentType: order.documentType, notes: order.notes };
  const said: PerLang<{ documentType?: string; notes: string[] }> = { en: english, pt: { documentType: order.pt?.documentType ?? order.documentType, notes: order.pt?.notes ?? order.notes } };
  return said[lang];
}

/** One order of the dry run: the document the connector would issue for it, or why it would not. */
export interface DryRunOrder {
  orderId: number;
  status: string;
  /**
   * 'issue': the document below would be issued; 'hold': it waits for a person; 'refuse': the mapping
   * cannot make a document; 'done': the order already has its document; 'not-invoiced': the connector
   * leaves it alone (sold before the go-live cut-off, or another system's document on it).
   */
  outcome: 'issue' | 'hold' | 'refuse' | 'done' | 'not-invoiced';
  documentType?: string;
  documentTotal?: string;
  shopTotal: string;
  currency: string;
  exemptionCodes: string[];
  /** The mapping's warnings, the hold's reasons, the refusal, or the document already on the order (English). */
  notes: string[];
  /** The same in Portuguese (`--lang pt`). */
  pt?: { documentType?: string; notes: string[] };
  /** A payment received before the supply that the connector does not invoice (CIVA art. 36(1)(c)): its kind and who keeps it in which status. */
  advancePayment?: { kind: 'deposit' | 'pre-order'; status: string; plugin: string };
  /** Listed in one of the platform's advance-payment statuses, not in a trigger status (not counted in the heading's "last N"). */
  beyondTriggers?: true;
}

export interface TenantReport {
  tenant: string;
  /** The shop's address (shop.url). */
  shop: string;
  ready: boolean;
  checks: Check[];
  dryRun?: DryRunOrder[];
}

export function isReady(checks: readonly Check[]): boolean {
  return checks.every((check) => check.status !== 'fail');
}
