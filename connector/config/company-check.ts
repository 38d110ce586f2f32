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
  /** The token is not companyNif's; `actual` is the company it belongs to when the file knows it (another tenant, the agency's partner list). */
  | { status: 'wrong'; nif: string; name?: string; cause: WrongCompanyCause; why: string; actual?: ActualCompany }
  /** The check could not run (service away): try again later, issue nothing meanwhile. */
  | { status: 'unknown'; nif: string; why: string };

export type WrongCompanyCause = 'not-listed' | 'no-partnership' | 'refused';

/**
 * The company a wrong token belongs to: `tenant` when another tenant of the file is that company,
 * `partner` the agency's own name for it when its partner list (agency.partners) has that NIF.
 */
export interface ActualCompany {
  nif: string;
  name?: string;
  tenant?: string;
  partner?: string;
}

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
      // The service cannot be asked; the agency's list may still say whose token this is.
      const listed = listedHolder(tenant);
      return { status: 'wrong', nif: companyNif, cause: 'refused', why: `Get Partner Access Tokens refused ${tenant.invoicing.email} and its password or token (${error.message})`, ...(listed ? { actual: listed } : {}) };
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

/** The agency's partner whose token in the list (agency.partners) is this tenant's: known without a call. */
function listedHolder(tenant: TenantConfig): ActualCompany | undefined {
  const token = tenant.invoicing.partnerToken;
  const held = (tenant.agencyPartners ?? []).find((partner) => partner.token !== undefined && partner.token === token && partner.nif !== tenant.invoicing.companyNif);
  return held ? { nif: held.nif, name: held.name, partner: held.name } : undefined;
}

/**
 * The company a wrong token belongs to; best effort. The agency's list first (a token it names, no
 * call), then the file's other tenants on the same account, then the agency's partners the list gives
 * no token for (Get Partner Access Tokens by their NIF). The company found is named by the agency's
 * list when it has that NIF.
 */
async function owner(client: MagniFinanceClient, tenant: TenantConfig, others: readonly TenantConfig[]): Promise<{ actual?: ActualCompany }> {
  const listed = listedHolder(tenant);
  if (listed) return { actual: listed };
  const partners = tenant.agencyPartners ?? [];
  const partnerNamed = (nif: string): { partner?: string } => {
    const partner = partners.find((p) => p.nif === nif);
    return partner ? { partner: partner.name } : {};
  };
  const tried = new Set<string>([tenant.invoicing.companyNif ?? '']);
  const candidates: { nif: string; tenant?: string }[] = [
    ...others.filter((other) => other.id !== tenant.id && other.invoicing.companyNif && other.invoicing.email === tenant.invoicing.email).map((other) => ({ nif: other.invoicing.companyNif as string, tenant: other.id })),
    ...partners.filter((partner) => partner.token === undefined).map((partner) => ({ nif: partner.nif })),
  ];
  for (const candidate of candidates) {
    if (tried.has(candidate.nif)) continue;
    tried.add(candidate.nif);
    try {
      const tokens = await tokensOf(client, tenant, candidate.nif);
      if (tokens.some((t) => t.token === tenant.invoicing.partnerToken)) {
        const name = tokens.find((t) => t.name)?.name ?? (await companyName(client, candidate.nif)) ?? partners.find((p) => p.nif === candidate.nif)?.name;
        return { actual: { nif: candidate.nif, ...(candidate.tenant ? { tenant: candidate.tenant } : {}), ...(name ? { name } : {}), ...partnerNamed(candidate.nif) } };
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
