import { AuthenticationError, ElementDoesNotExistError, MagniFinanceError, TransportNetworkError, TransportTimeoutError } from '../../client/errors';
import { CONSUMER_NIF } from '../../client/nif';
import type { TenantConfig } from '../config/load-config';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { companyLabel, verifyCompany } from '../config/company-check';
import { fail, ok, warn, type Check } from './check';

/** A document id no account has (15 digits, the most the service takes): reading it changes nothing. */
const NO_SUCH_DOCUMENT = 999_999_999_999_999;

/**
 * The MagniFinance credentials, by the call the n8n credential's test uses: a tax-id validation of
 * the final-consumer NIF, a read that creates nothing. Then the partner token (agency mode), the
 * token documents are created with: tax-id validation takes only an account's own token, so it reads
 * the payment status of a document that does not exist, answered "element does not exist" (6) to a
 * token the service accepts and "authentication" (1) to one it refuses.
 */
export async function checkInvoicing(runtime: TenantRuntime, others: readonly TenantConfig[] = []): Promise<Check[]> {
  const config = runtime.config;
  const checks = [await harmlessCall(runtime, config, 'MagniFinance credentials', undefined)];
  if (config.invoicing.partnerToken !== undefined && checks[0].status === 'ok') {
    checks.push(await harmlessCall(runtime, config, 'MagniFinance partner token', config.invoicing.partnerToken));
  }
  if (checks.every((check) => check.status === 'ok')) checks.push(await checkCompany(runtime, others));
  return checks;
}

/** Which company the tenant's documents are issued for: the connector's own check (config/company-check.ts). */
async function checkCompany(runtime: TenantRuntime, others: readonly TenantConfig[]): Promise<Check> {
  const verdict = await verifyCompany(runtime.invoicing, runtime.config, others);
  const name = 'company';
  switch (verdict.status) {
    case 'ok':
      return ok('invoicing', name, `${companyLabel(verdict)}: the partner token is one of this company's (Get Partner Access Tokens)`);
    case 'unchecked':
      return verdict.nif
        ? ok('invoicing', name, `${companyLabel(verdict)} as configured (an account's own token acts for its own company)`)
        : warn('invoicing', name, 'not set', 'Set invoicing.companyNif to the NIF of the company this tenant invoices for: the doctor and the console show it.');
    case 'unknown':
      return warn('invoicing', name, `could not check that the partner token is company ${verdict.nif}'s: ${verdict.why}`, 'Run the doctor again; the connector checks again before the first document and issues nothing until it can.');
    case 'wrong':
      return fail(
        'invoicing',
        name,
        `the tenant invoices for company ${companyLabel(verdict)}, but ${verdict.why}${verdict.actual ? `; the token is company ${companyLabel(verdict.actual)}'s (tenant ${verdict.actual.tenant})` : ''}: documents would be issued in another company's name`,
        `Run "magnifinance partner tokens --tax-id ${verdict.nif}" and put that token in invoicing.partnerToken (or correct invoicing.companyNif). The connector refuses to issue for this tenant until they match.`,
      );
  }
}

async function harmlessCall(runtime: TenantRuntime, config: TenantConfig, name: string, partnerToken: string | undefined): Promise<Check> {
  try {
    if (partnerToken) await runtime.invoicing.getDocumentProperty(NO_SUCH_DOCUMENT, { token: partnerToken });
    else await runtime.invoicing.validateTaxId('PT', CONSUMER_NIF);
    return ok('invoicing', name, partnerToken ? `accepted for ${config.invoicing.email} on behalf of the partner company` : `accepted for ${config.invoicing.email} at ${config.invoicing.baseUrl}`);
  } catch (error) {
    if (partnerToken && error instanceof ElementDoesNotExistError) return ok('invoicing', name, `accepted for ${config.invoicing.email} on behalf of the partner company`);
    if (error instanceof AuthenticationError) {
      return partnerToken
        ? fail(
            'invoicing',
            name,
            `MagniFinance refused the partner token with ${config.invoicing.email}: ${error.message}`,
            'Run "magnifinance partner tokens --tax-id <the company\'s NIF>" with your partner account and put its token in invoicing.partnerToken; the company must have approved the partnership.',
          )
        : fail(
            'invoicing',
            name,
            `MagniFinance refused the e-mail or token: ${error.message}`,
            "Check invoicing.email (the API user's e-mail) and invoicing.token (the subscription's own API token, as MagniFinance gave it) and that the subscription is active.",
          );
    }
    if (error instanceof TransportNetworkError || error instanceof TransportTimeoutError) {
      return fail('invoicing', name, `no answer from ${config.invoicing.baseUrl}: ${error.message}`, 'Check invoicing.baseUrl (https://bo.magnifinance.com/api/v1.1) and that this machine reaches it.');
    }
    const message = error instanceof MagniFinanceError ? error.message : String(error);
    return fail('invoicing', name, `unexpected answer: ${message}`, 'Run the doctor again; if it persists, check the service status with MagniFinance.');
  }
}
