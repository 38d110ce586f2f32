import { MagniFinanceError } from '../../client/errors';
import { MagniFinanceClient } from '../../client/rest-client';
import type { PartnerInformation } from '../../client/schemas/partner';
import { EXIT, parseCommandArgs } from './command-line';

const HELP = `Usage: magnifinance partner <add|tokens> [options]

Agency mode: register a client company as your partner, then fetch the token that invoices on
its behalf (put that token in the tenant's invoicing.partnerToken).

Credentials of YOUR partner-invoicing account come from the environment (never from flags, so
they stay out of shell history): MAGNIFINANCE_EMAIL, MAGNIFINANCE_TOKEN, and optionally
MAGNIFINANCE_BASE_URL (default https://bo.magnifinance.com/api/v1.1; a sandbox URL to try it).

  partner add --tax-id NIF [--legal-name N] [--user-name N] [--user-email E] [--user-phone P]
              [--address A] [--city C] [--post-code P] [--country PT]
      Registers the company. If it already uses the service it receives an e-mail to approve.
  partner tokens --tax-id NIF [--spec-form]
      Lists the partner's access tokens (available once the company approved). MagniFinance asks
      for the password of your account's main API user here, and only here: set
      MAGNIFINANCE_PASSWORD. --spec-form uses the spec's GET /partner/tokens?taxId= instead of the
      documented GET /partner/accessTokens?partnerTaxId= (no password).

Exit code 0 when done, 1 for a wrong or missing option or credential, or a refusal of the service.
`;

export async function runPartnerCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(
    {
    args,
    options: {
      'tax-id': { type: 'string' },
      'legal-name': { type: 'string' },
      'user-name': { type: 'string' },
      'user-email': { type: 'string' },
      'user-phone': { type: 'string' },
      address: { type: 'string' },
      city: { type: 'string' },
      'post-code': { type: 'string' },
      country: { type: 'string' },
      'spec-form': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    },
    HELP,
  );
  if (!parsed) return EXIT.notDone;
  const { values, positionals } = parsed;
  const action = positionals[0];
  if (values.help || (action !== 'add' && action !== 'tokens')) {
    process.stdout.write(HELP);
    return values.help ? EXIT.done : EXIT.notDone;
  }
  const email = process.env.MAGNIFINANCE_EMAIL;
  const token = process.env.MAGNIFINANCE_TOKEN;
  const password = process.env.MAGNIFINANCE_PASSWORD;
  const specForm = values['spec-form'] ?? false;
  const missing = [
    !email && 'MAGNIFINANCE_EMAIL',
    !token && 'MAGNIFINANCE_TOKEN',
    action === 'tokens' && !specForm && !password && 'MAGNIFINANCE_PASSWORD',
    !values['tax-id'] && '--tax-id',
  ].filter(Boolean);
  if (missing.length > 0) {
    process.stderr.write(`Missing: ${missing.join(', ')}\n\n${HELP}`);
    return EXIT.notDone;
  }
  const client = new MagniFinanceClient({ email: email as string, token: token as string, baseUrl: process.env.MAGNIFINANCE_BASE_URL });
  const taxId = values['tax-id'] as string;
  try {
    if (action === 'add') {
      const info: PartnerInformation = { CompanyTaxId: taxId };
      if (values['legal-name']) info.CompanyLegalName = values['legal-name'];
      if (values['user-name']) info.UserName = values['user-name'];
      if (values['user-email']) info.UserEmail = values['user-email'];
      if (values['user-phone']) info.UserPhone = values['user-phone'];
      if (values.address) info.CompanyAddress = values.address;
      if (values.city) info.CompanyCity = values.city;
      if (values['post-code']) info.CompanyPostCode = values['post-code'];
      if (values.country) info.CompanyCountry = values.country;
      const result = await client.addPartner(info);
      process.stdout.write(`${JSON.stringify({ requestId: result.requestId, object: result.object }, null, 2)}\n`);
      process.stdout.write(`Partner ${taxId} added. If the company already used the service, it must approve by e-mail before "partner tokens" returns a token.\n`);
    } else {
      const tokens = await client.getPartnerAccessTokens(taxId, specForm ? { form: 'spec' } : { password: password as string });
      if (tokens.length === 0) process.stdout.write(`No token for ${taxId} yet: the company has not approved the partnership.\n`);
      for (const item of tokens) {
        process.stdout.write(`${JSON.stringify({ taxId: item.taxId, name: item.name, description: item.description, token: item.token })}\n`);
      }
    }
    return EXIT.done;
  } catch (error) {
    if (error instanceof MagniFinanceError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.notDone;
    }
    throw error;
  }
}
