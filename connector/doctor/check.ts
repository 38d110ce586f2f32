/**
 * What the doctor reports: one line per check, OK / WARN / FAIL, and under every WARN and FAIL the
 * fix in plain words. Only FAIL makes a tenant not ready; a check that could not run is a WARN that
 * says so ("could not check").
 */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export type CheckArea = 'shop' | 'webhooks' | 'invoicing' | 'orders' | 'redis';

export interface Check {
  area: CheckArea;
  /** Short name of what was checked ("REST key (read)"). */
  name: string;
  status: CheckStatus;
  /** What was found, in plain words. */
  detail: string;
  /** What to do about it; present for every WARN and FAIL. */
  fix?: string;
}

export function ok(area: CheckArea, name: string, detail: string): Check {
  return { area, name, status: 'ok', detail };
}

export function warn(area: CheckArea, name: string, detail: string, fix: string): Check {
  return { area, name, status: 'warn', detail, fix };
}

export function fail(area: CheckArea, name: string, detail: string, fix: string): Check {
  return { area, name, status: 'fail', detail, fix };
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
  /** The mapping's warnings, the hold's reasons, the refusal, or the document already on the order. */
  notes: string[];
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
