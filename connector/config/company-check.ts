import { createHash } from 'node:crypto';
import { ApiError, AuthenticationError, TransportNetworkError, TransportTimeoutError } from '../../client/errors';
import type { MagniFinanceClient, PartnerAccessToken } from '../../client/rest-client';
import type { TenantConfig } from './load-config';

/**
 * Which company a tenant's documents are issued for. A partner token acts for exactly one company:
 * the agency's own Get Partner Access Tokens for the tenant's companyNif must list it. A token
 * copied from another client's tenant block passes every other check (the service accepts it) and
 * issues certified documents in the wrong company's name, which only a credit note can undo.
 */
export type CompanyVerdict =
  /** The token is one of companyNif's. */
  | { status: 'ok'; nif: string; name?: string }
  /** Own token: the service cannot tell which company it acts for; the NIF is as configured. */
  | { status: 'unchecked'; nif?: string }
  /** The token is not companyNif's; `actual` is the company it belongs to when one of the file's others is. */
  | { status: 'wrong'; nif: string; name?: string; cause: WrongCompanyCause; why: string; actual?: { nif: string; name?: string; tenant: string } }
  /** The check could not run (service away): try again later, issue nothing meanwhile. */
  | { status: 'unknown'; nif: string; why: string };

export type WrongCompanyCause = 'not-listed' | 'no-partnership' | 'refused';

/** Changes whenever anything the verdict rests on changes: a reload with a new token checks again. */
export function companyFingerprint(tenant: TenantConfig): string {
  const { email, partnerToken, companyNif, baseUrl } = tenant.invoicing;
  return createHash('sha256').update(JSON.stringify([baseUrl, email, partnerToken ?? '', companyNif ?? ''])).digest('hex').slice(0, 32);
}

/** `others`: the rest of the tenants file, to name the company a wrong token belongs to. */
export async function verifyCompany(client: MagniFinanceClient, tenant: TenantConfig, others: readonly TenantConfig[] = []): Promise<CompanyVerdict> {
  const { partnerToken, companyNif } = tenant.invoicing;
  if (!partnerToken || !companyNif) return companyNif ? { status: 'unchecked', nif: companyNif } : { status: 'unchecked' };
  let tokens: PartnerAccessToken[];
  try {
    tokens = await tokensOf(client, tenant, companyNif);
  } catch (error) {
    if (error instanceof TransportNetworkError || error instanceof TransportTimeoutError || (error instanceof ApiError && error.status >= 500)) {
      return { status: 'unknown', nif: companyNif, why: error.message };
    }
    if (error instanceof AuthenticationError) {
      return { status: 'wrong', nif: companyNif, cause: 'refused', why: `Get Partner Access Tokens refused ${tenant.invoicing.email} and its password or token (${error.message})` };
    }
    // PartnershipNotFound (38) and the like: this account has no partnership with that company.
    return { status: 'wrong', nif: companyNif, cause: 'no-partnership', why: `the account ${tenant.invoicing.email} has no partnership with company ${companyNif} (${(error as Error).message})`, ...(await owner(client, tenant, others)) };
  }
  const name = tokens.find((t) => t.name)?.name ?? (await companyName(client, companyNif));
  if (tokens.some((t) => t.token === partnerToken)) return { status: 'ok', nif: companyNif, ...(name ? { name } : {}) };
  return {
    status: 'wrong',
    nif: companyNif,
    ...(name ? { name } : {}),
    cause: 'not-listed',
    why: `the partner token is not one of the tokens Get Partner Access Tokens lists for company ${companyNif}`,
    ...(await owner(client, tenant, others)),
  };
}

function tokensOf(client: MagniFinanceClient, tenant: TenantConfig, nif: string): Promise<PartnerAccessToken[]> {
  const password = tenant.invoicing.password;
  return client.getPartnerAccessTokens(nif, tenant.invoicing.partnerTokensForm === 'spec' || !password ? { form: 'spec' } : { password });
}

/** The company among the file's other tenants (same account) whose tokens include this one; best effort. */
async function owner(client: MagniFinanceClient, tenant: TenantConfig, others: readonly TenantConfig[]): Promise<{ actual?: { nif: string; name?: string; tenant: string } }> {
  for (const other of others) {
    const nif = other.invoicing.companyNif;
    if (other.id === tenant.id || !nif || nif === tenant.invoicing.companyNif || other.invoicing.email !== tenant.invoicing.email) continue;
    try {
      const tokens = await tokensOf(client, tenant, nif);
      if (tokens.some((t) => t.token === tenant.invoicing.partnerToken)) {
        const name = tokens.find((t) => t.name)?.name ?? (await companyName(client, nif));
        return { actual: { nif, tenant: other.id, ...(name ? { name } : {}) } };
      }
    } catch {
      // Not this one (or the service is away): the message then names only the expected company.
    }
  }
  return {};
}

/** The registered name (Client Get), so a person reads which company; best effort. */
async function companyName(client: MagniFinanceClient, nif: string): Promise<string | undefined> {
  try {
    const data = await client.getClient('PT', nif);
    return data.CompanyLegalName ?? data.LegalName ?? data.Name ?? undefined;
  } catch {
    return undefined;
  }
}

/** "509442013 (Empresa, Lda.)" */
export function companyLabel(company: { nif?: string; name?: string }): string {
  if (!company.nif) return 'not set';
  return company.name ? `${company.nif} (${company.name})` : company.nif;
}
