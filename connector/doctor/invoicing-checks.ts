import { AuthenticationError, ElementDoesNotExistError, MagniFinanceError, TransportNetworkError, TransportTimeoutError } from '../../client/errors';
import { CONSUMER_NIF } from '../../client/nif';
import type { TenantConfig } from '../config/load-config';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { companyLabel, verifyCompany } from '../config/company-check';
import { fail, ok, warn, type Check, type Words } from './check';
import { doctorSays } from './doctor-messages';

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
  const checks = [await harmlessCall(runtime, config, doctorSays('credentials-name'), undefined)];
  if (config.invoicing.partnerToken !== undefined && checks[0].status === 'ok') {
    checks.push(await harmlessCall(runtime, config, doctorSays('partner-token-name'), config.invoicing.partnerToken));
  }
  if (checks.every((check) => check.status === 'ok')) checks.push(await checkCompany(runtime, others));
  return checks;
}

/** Which company the tenant's documents are issued for: the connector's own check (config/company-check.ts). */
async function checkCompany(runtime: TenantRuntime, others: readonly TenantConfig[]): Promise<Check> {
  const verdict = await verifyCompany(runtime.invoicing, runtime.config, others);
  const name = doctorSays('company-name');
  switch (verdict.status) {
    case 'ok':
      return ok('invoicing', name, doctorSays('company-ok', { company: companyLabel(verdict) }));
    case 'unchecked':
      return verdict.nif ? ok('invoicing', name, doctorSays('company-as-configured', { company: companyLabel(verdict) })) : warn('invoicing', name, doctorSays('company-unset'), doctorSays('company-unset-fix'));
    case 'unknown':
      return warn('invoicing', name, doctorSays('company-unknown', { nif: verdict.nif, why: verdict.why }), doctorSays('company-unknown-fix'));
    case 'wrong':
      return fail(
        'invoicing',
        name,
        doctorSays('company-wrong', {
          company: companyLabel(verdict),
          why: verdict.why,
          ...(verdict.actual ? { actual: companyLabel(verdict.actual) } : {}),
          ...(verdict.actual?.tenant ? { actualTenant: verdict.actual.tenant } : {}),
          ...(verdict.actual?.partner ? { actualPartner: verdict.actual.partner } : {}),
        }),
        doctorSays('company-wrong-fix', { nif: verdict.nif }),
      );
  }
}

async function harmlessCall(runtime: TenantRuntime, config: TenantConfig, name: Words, partnerToken: string | undefined): Promise<Check> {
  const onBehalf = doctorSays('on-behalf', { email: config.invoicing.email });
  try {
    if (partnerToken) await runtime.invoicing.getDocumentProperty(NO_SUCH_DOCUMENT, { token: partnerToken });
    else await runtime.invoicing.validateTaxId('PT', CONSUMER_NIF);
    return ok('invoicing', name, partnerToken ? onBehalf : doctorSays('credentials-accepted', { email: config.invoicing.email, baseUrl: config.invoicing.baseUrl }));
  } catch (error) {
    if (partnerToken && error instanceof ElementDoesNotExistError) return ok('invoicing', name, onBehalf);
    if (error instanceof AuthenticationError) {
      return partnerToken
        ? fail('invoicing', name, doctorSays('partner-token-refused', { email: config.invoicing.email, error: error.message }), doctorSays('partner-token-refused-fix'))
        : fail('invoicing', name, doctorSays('credentials-refused', { error: error.message }), doctorSays('credentials-refused-fix'));
    }
    if (error instanceof TransportNetworkError || error instanceof TransportTimeoutError) {
      const silent = { baseUrl: config.invoicing.baseUrl, error: error.message, timedOut: error instanceof TransportTimeoutError, ...(error instanceof TransportNetworkError && error.code ? { code: error.code } : {}) };
      return fail('invoicing', name, doctorSays('service-silent', silent), doctorSays('service-silent-fix'));
    }
    const message = error instanceof MagniFinanceError ? error.message : String(error);
    return fail('invoicing', name, doctorSays('service-unexpected', { error: message }), doctorSays('service-unexpected-fix'));
  }
}
