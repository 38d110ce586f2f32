import type { Partnership, SandboxAccount } from './state';
import type { SandboxStore } from './store';

/**
 * Who is calling. `account` is the account the call acts on: the caller's own, or, when a partner
 * token is sent with the partner-invoicing owner's e-mail, the partner's (spec: "send the
 * partner's token in the token header instead of the account's own token").
 */
export interface Caller {
  account: SandboxAccount;
  /** Set when acting through a partner token: the owner and the partnership that allows it. */
  viaPartnership?: { owner: SandboxAccount; partnership: Partnership };
}

export function resolveCaller(store: SandboxStore, email: string | undefined, token: string | undefined): Caller | undefined {
  if (!email || !token) return undefined;
  const emailAccount = store.accountByEmail(email.trim());
  if (!emailAccount) return undefined;
  if (emailAccount.token === token) return { account: emailAccount };
  const partner = store.accountByToken(token);
  if (!partner) return undefined;
  const partnership = store.state.partnerships.find(
    (p) => p.status === 'granted' && p.ownerTaxId === emailAccount.taxId && p.partnerTaxId === partner.taxId,
  );
  return partnership ? { account: partner, viaPartnership: { owner: emailAccount, partnership } } : undefined;
}
