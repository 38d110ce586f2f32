import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { MagniFinanceClient } from '../../../client/rest-client';
import { CREDENTIAL_TYPE, n8nTransport } from '../transport';
import { cancellableSleep } from './cancellable-sleep';

const CredentialsSchema = z.object({
  email: z.string(),
  token: z.string(),
  baseUrl: z.string().optional(),
});

/**
 * One client per execution, speaking through n8n's request helper. The e-mail and token given to
 * the client are only used to spot a partner-token override: the transport drops the client's
 * auth headers and lets the credential's `authenticate` apply them.
 */
export async function clientForNode(this: IExecuteFunctions): Promise<MagniFinanceClient> {
  const credentials = await this.getCredentials(CREDENTIAL_TYPE);
  const { email, token, baseUrl } = CredentialsSchema.parse(credentials);
  const signal = this.getExecutionCancelSignal();
  return new MagniFinanceClient({
    email,
    token,
    baseUrl: baseUrl?.trim() ? baseUrl.trim() : undefined,
    transport: n8nTransport(this, credentials),
    // Retries of safe reads wait with n8n's own sleep, cancelled with the execution.
    sleep: async (ms) => await cancellableSleep(ms, signal),
  });
}
