import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { ok, warn, type Check } from './check';
import { doctorSays } from './doctor-messages';

/** A Portuguese VAT number VIES knows (the tenant's company when set): any verdict, valid or not, means VIES answers. */
const PROBE_NIF = '500000000';

/**
 * Whether VIES answers, for a tenant that asks it before invoicing EU businesses (a `vies` block).
 * With `whenUnavailable: wait` (the default) an EU business's invoice waits while VIES is down; the
 * doctor says so before the first such order does. A WARN, not a FAIL: VIES comes and goes, and
 * only EU businesses' orders wait for it.
 */
export async function checkVies(runtime: TenantRuntime): Promise<Check | undefined> {
  const registry = runtime.vies;
  if (!registry) return undefined;
  const name = doctorSays('vies-name');
  const nif = runtime.config.invoicing.companyNif ?? PROBE_NIF;
  const url = registry.settings.url;
  const answer = await registry.check('PT', nif);
  if ('verdict' in answer) return ok('invoicing', name, doctorSays('vies-answers', { nif, url }));
  const waits = registry.settings.whenUnavailable === 'wait';
  return warn('invoicing', name, doctorSays('vies-silent', { nif, url, why: answer.unavailable }), doctorSays(waits ? 'vies-silent-wait-fix' : 'vies-silent-format-fix'));
}
