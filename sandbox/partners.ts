import type { Caller } from './auth';
import { failure, SandboxAnswer, success } from './envelope';
import { FIELD_MAX } from '../client/input-rules';
import { COUNTRY_CODES, DEFAULT_PARTNER_TYPES, DocumentTypeLetter } from './reference-data';
import type { Partnership, SandboxAccount } from './state';
import type { SandboxStore } from './store';
import { isValidTaxId, normaliseTaxId } from './tax-id';
import { Checker, isEmailText, isRawObject } from './validation/checker';
import { violationAnswer } from './violations';

/**
 * Partner invoicing: an account registers companies as partners and invoices for them with the
 * partner's token. Unknown companies are registered and associated at once; a registered company
 * is asked by e-mail and must approve (POST /_sandbox/partners/approve) before its token is given.
 */

function partnershipView(p: Partnership): Record<string, unknown> {
  return {
    CompanyTaxId: p.partnerTaxId,
    Status: p.status === 'granted' ? 'AccessGranted' : 'AccessRequested',
    AllowedDocumentTypes: p.allowedTypes,
  };
}

export function addPartner(store: SandboxStore, caller: Caller, body: unknown): SandboxAnswer {
  const c = new Checker();
  const info = isRawObject(body) ? body : {};
  // Lengths from the shared table; CompanyTaxId is required here and in the client (input-rules.ts).
  const P = FIELD_MAX.Partner;
  const taxIdText = c.text(info, 'CompanyTaxId', 'CompanyTaxId', { required: true, max: P.CompanyTaxId });
  const userName = c.text(info, 'UserName', 'UserName', { max: P.UserName });
  const userEmail = c.text(info, 'UserEmail', 'UserEmail', { max: P.UserEmail });
  const userPhone = c.text(info, 'UserPhone', 'UserPhone', { max: P.UserPhone });
  const legalName = c.text(info, 'CompanyLegalName', 'CompanyLegalName', { max: P.CompanyLegalName });
  const address = c.text(info, 'CompanyAddress', 'CompanyAddress', { max: P.CompanyAddress });
  const city = c.text(info, 'CompanyCity', 'CompanyCity', { max: P.CompanyCity });
  const postCode = c.text(info, 'CompanyPostCode', 'CompanyPostCode', { max: P.CompanyPostCode });
  const country = c.text(info, 'CompanyCountry', 'CompanyCountry', { max: P.CompanyCountry }) ?? 'PT';
  if (!COUNTRY_CODES.has(country)) c.add('InvalidCountryCode', 'CompanyCountry', 'CompanyCountry must be an ISO 3166-1 alpha-2 code');
  if (userEmail !== undefined && !isEmailText(userEmail)) c.add('InvalidEmail', 'UserEmail', 'UserEmail must be an e-mail address');
  if (taxIdText !== undefined && !isValidTaxId(country, taxIdText)) c.add('InvalidTaxId', 'CompanyTaxId', 'Invalid Tax Id');
  if (c.violations.length > 0) return violationAnswer(c.violations, taxIdText);
  const taxId = normaliseTaxId(taxIdText as string);
  const owner = caller.account;
  if (taxId === owner.taxId) {
    return failure('ValidationError', 'ValidationError', [
      { Type: 'CannotPartnerWithOwnCompany', Field: 'CompanyTaxId', ElementNumber: 0, Detail: 'A company cannot be its own partner' },
    ]);
  }
  const existing = store.state.partnerships.find((p) => p.ownerTaxId === owner.taxId && p.partnerTaxId === taxId);
  if (existing) return success(partnershipView(existing));

  const now = store.now();
  const company = store.accountByTaxId(taxId);
  const partnership: Partnership = {
    ownerTaxId: owner.taxId,
    partnerTaxId: taxId,
    status: company ? 'requested' : 'granted',
    allowedTypes: [...DEFAULT_PARTNER_TYPES],
    requestedAt: now,
    ...(company ? {} : { grantedAt: now }),
  };
  store.state.partnerships.push(partnership);
  if (company) {
    store.sendEmail({
      kind: 'partner-access-request',
      to: company.email,
      subject: `${owner.companyName} asks for partner invoicing access`,
      body: `${owner.companyName} (NIF ${owner.taxId}) asks to issue documents on behalf of ${company.companyName}. Approve the request to grant access.`,
    });
  } else {
    const registered: SandboxAccount = {
      email: userEmail ?? `partner-${taxId}@sandbox.invalid`,
      token: `partner-${store.random.hex(12)}`,
      taxId,
      companyName: legalName ?? userName ?? `Company ${taxId}`,
      atCommunication: false,
      ...(address ? { address } : {}),
      ...(city ? { city } : {}),
      ...(postCode ? { postCode } : {}),
    };
    store.addAccount(registered);
    if (userEmail) {
      store.sendEmail({
        kind: 'partner-registered',
        to: userEmail,
        subject: `${registered.companyName} is registered for invoicing`,
        body: `${owner.companyName} registered ${registered.companyName} (NIF ${taxId}) and will issue documents on its behalf.${userPhone ? ` Contact: ${userPhone}.` : ''}`,
      });
    }
  }
  store.changed();
  return success(partnershipView(partnership));
}

/**
 * Get Partner Access Tokens in two forms: 'documented' (GET /partner/accessTokens?partnerTaxId=,
 * answering [{AccessToken, Description}] as MagniFinance's public docs show) and 'spec'
 * (GET /partner/tokens?taxId=, answering [{TaxId, CompanyName, Email, Token}]).
 */
export function partnerTokens(
  store: SandboxStore,
  caller: Caller,
  taxIdParam: string | undefined,
  form: 'documented' | 'spec',
): SandboxAnswer {
  const param = form === 'documented' ? 'partnerTaxId' : 'taxId';
  if (!taxIdParam || taxIdParam.trim() === '') {
    return failure('ValidationError', 'ValidationError', [
      { Type: 'Required', Field: param, ElementNumber: 0, Value: '', Detail: `${param} is required` },
    ]);
  }
  const taxId = normaliseTaxId(taxIdParam);
  const partnership = store.state.partnerships.find(
    (p) => p.ownerTaxId === caller.account.taxId && p.partnerTaxId === taxId && p.status === 'granted',
  );
  const partner = partnership ? store.accountByTaxId(taxId) : undefined;
  if (!partnership || !partner) {
    return failure('PartnershipNotFound', 'PartnershipNotFound', [
      {
        Type: 'PartnershipNotFound',
        Field: param,
        ElementNumber: 0,
        Value: taxIdParam,
        Detail: 'No granted partnership with this company',
      },
    ]);
  }
  if (form === 'documented') {
    return success([{ AccessToken: partner.token, Description: `${partner.companyName} (${partner.taxId})` }]);
  }
  return success([{ TaxId: partner.taxId, CompanyName: partner.companyName, Email: partner.email, Token: partner.token }]);
}

/**
 * Sandbox-only: the company approves. The two tax ids may be given either way round, since
 * "partner" names the invoicing account in some texts and the invoiced company in others.
 */
export function approvePartnership(
  store: SandboxStore,
  taxIdA: string,
  taxIdB: string | undefined,
  allowedTypes: DocumentTypeLetter[] | undefined,
): Partnership[] {
  const a = normaliseTaxId(taxIdA);
  const b = taxIdB === undefined ? undefined : normaliseTaxId(taxIdB);
  const matches = store.state.partnerships.filter(
    (p) =>
      (b === undefined && p.partnerTaxId === a) ||
      (p.ownerTaxId === a && p.partnerTaxId === b) ||
      (p.ownerTaxId === b && p.partnerTaxId === a),
  );
  const now = store.now();
  for (const p of matches) {
    if (p.status !== 'granted') {
      p.status = 'granted';
      p.grantedAt = now;
    }
    if (allowedTypes) p.allowedTypes = [...allowedTypes];
  }
  store.changed();
  return matches;
}
