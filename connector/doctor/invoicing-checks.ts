import { AuthenticationError, ElementDoesNotExistError, MagniFinanceError, TransportNetworkError, TransportTimeoutError } from '../../client/errors';
import { CONSUMER_NIF } from '../../client/nif';
import type { TenantConfig } from '../config/load-config';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { companyLabel, verifyCompany } from '../config/company-check';
import { fail, ok, warn, type Check, type Words } from './check';

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
  const checks = [await harmlessCall(runtime, config, { en: 'MagniFinance credentials', pt: 'Credenciais MagniFinance' }, undefined)];
  if (config.invoicing.partnerToken !== undefined && checks[0].status === 'ok') {
    checks.push(await harmlessCall(runtime, config, { en: 'MagniFinance partner token', pt: 'Token de parceiro MagniFinance' }, config.invoicing.partnerToken));
  }
  if (checks.every((check) => check.status === 'ok')) checks.push(await checkCompany(runtime, others));
  return checks;
}

/** Which company the tenant's documents are issued for: the connector's own check (config/company-check.ts). */
async function checkCompany(runtime: TenantRuntime, others: readonly TenantConfig[]): Promise<Check> {
  const verdict = await verifyCompany(runtime.invoicing, runtime.config, others);
  const name = { en: 'company', pt: 'Empresa' };
  switch (verdict.status) {
    case 'ok':
      return ok('invoicing', name, {
        en: `${companyLabel(verdict)}: the partner token is one of this company's (Get Partner Access Tokens)`,
        pt: `${companyLabel(verdict)}: o token de parceiro é um dos desta empresa (Get Partner Access Tokens)`,
      });
    case 'unchecked':
      return verdict.nif
        ? ok('invoicing', name, {
            en: `${companyLabel(verdict)} as configured (an account's own token acts for its own company)`,
            pt: `${companyLabel(verdict)}, como configurado (o token próprio de uma conta age pela sua própria empresa)`,
          })
        : warn('invoicing', name, { en: 'not set', pt: 'não indicada' }, {
            en: 'Set invoicing.companyNif to the NIF of the company this tenant invoices for: the doctor and the console show it.',
            pt: 'Indique em invoicing.companyNif o NIF da empresa pela qual esta loja fatura: o doctor e a consola mostram-no.',
          });
    case 'unknown':
      return warn(
        'invoicing',
        name,
        { en: `could not check that the partner token is company ${verdict.nif}'s: ${verdict.why}`, pt: `não foi possível verificar que o token de parceiro é da empresa ${verdict.nif} (resposta: «${verdict.why}»)` },
        {
          en: 'Run the doctor again; the connector checks again before the first document and issues nothing until it can.',
          pt: 'Volte a correr o doctor; o conector verifica de novo antes do primeiro documento e não emite nada até o conseguir.',
        },
      );
    case 'wrong':
      return fail(
        'invoicing',
        name,
        {
          en: `the tenant invoices for company ${companyLabel(verdict)}, but ${verdict.why}${verdict.actual ? `; the token is company ${companyLabel(verdict.actual)}'s (tenant ${verdict.actual.tenant})` : ''}: documents would be issued in another company's name`,
          pt: `a loja fatura pela empresa ${companyLabel(verdict)}, mas o token não é dela (verificação: «${verdict.why}»)${verdict.actual ? `; o token é da empresa ${companyLabel(verdict.actual)} (loja ${verdict.actual.tenant})` : ''}: os documentos seriam emitidos em nome de outra empresa`,
        },
        {
          en: `Run "magnifinance partner tokens --tax-id ${verdict.nif}" and put that token in invoicing.partnerToken (or correct invoicing.companyNif). The connector refuses to issue for this tenant until they match.`,
          pt: `Corra "magnifinance partner tokens --tax-id ${verdict.nif}" e ponha esse token em invoicing.partnerToken (ou corrija invoicing.companyNif). O conector não emite nada para esta loja enquanto não coincidirem.`,
        },
      );
  }
}

async function harmlessCall(runtime: TenantRuntime, config: TenantConfig, name: Words, partnerToken: string | undefined): Promise<Check> {
  const onBehalf = { en: `accepted for ${config.invoicing.email} on behalf of the partner company`, pt: `aceite para ${config.invoicing.email} em nome da empresa parceira` };
  try {
    if (partnerToken) await runtime.invoicing.getDocumentProperty(NO_SUCH_DOCUMENT, { token: partnerToken });
    else await runtime.invoicing.validateTaxId('PT', CONSUMER_NIF);
    return ok('invoicing', name, partnerToken ? onBehalf : { en: `accepted for ${config.invoicing.email} at ${config.invoicing.baseUrl}`, pt: `aceites para ${config.invoicing.email} em ${config.invoicing.baseUrl}` });
  } catch (error) {
    if (partnerToken && error instanceof ElementDoesNotExistError) return ok('invoicing', name, onBehalf);
    if (error instanceof AuthenticationError) {
      return partnerToken
        ? fail(
            'invoicing',
            name,
            { en: `MagniFinance refused the partner token with ${config.invoicing.email}: ${error.message}`, pt: `A MagniFinance recusou o token de parceiro com ${config.invoicing.email} (AuthenticationError)` },
            {
              en: 'Run "magnifinance partner tokens --tax-id <the company\'s NIF>" with your partner account and put its token in invoicing.partnerToken; the company must have approved the partnership.',
              pt: 'Corra "magnifinance partner tokens --tax-id <NIF da empresa>" com a sua conta de parceiro e ponha esse token em invoicing.partnerToken; a empresa tem de ter aprovado a parceria.',
            },
          )
        : fail(
            'invoicing',
            name,
            { en: `MagniFinance refused the e-mail or token: ${error.message}`, pt: 'A MagniFinance recusou o e-mail ou o token (AuthenticationError)' },
            {
              en: "Check invoicing.email (the API user's e-mail) and invoicing.token (the subscription's own API token, as MagniFinance gave it) and that the subscription is active.",
              pt: 'Verifique invoicing.email (o e-mail do utilizador da API) e invoicing.token (o token da API da subscrição, tal como a MagniFinance o deu) e se a subscrição está ativa.',
            },
          );
    }
    if (error instanceof TransportNetworkError || error instanceof TransportTimeoutError) {
      return fail(
        'invoicing',
        name,
        { en: `no answer from ${config.invoicing.baseUrl}: ${error.message}`, pt: `${config.invoicing.baseUrl} não respondeu (${error instanceof TransportTimeoutError ? 'tempo esgotado' : (error.code ?? 'sem ligação')})` },
        { en: 'Check invoicing.baseUrl (https://bo.magnifinance.com/api/v1.1) and that this machine reaches it.', pt: 'Verifique invoicing.baseUrl (https://bo.magnifinance.com/api/v1.1) e se esta máquina lhe chega.' },
      );
    }
    const message = error instanceof MagniFinanceError ? error.message : String(error);
    return fail(
      'invoicing',
      name,
      { en: `unexpected answer: ${message}`, pt: `resposta inesperada: «${message}»` },
      { en: 'Run the doctor again; if it persists, check the service status with MagniFinance.', pt: 'Volte a correr o doctor; se continuar, confirme com a MagniFinance o estado do serviço.' },
    );
  }
}
