import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { both, ok, warn, type Check } from './check';

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
  const name = { en: 'VIES answers', pt: 'O VIES responde' };
  const nif = runtime.config.invoicing.companyNif ?? PROBE_NIF;
  const answer = await registry.check('PT', nif);
  if ('verdict' in answer) {
    return ok('invoicing', name, both(() => `asked about PT${nif} at ${registry.settings.url}: it answered`, () => `perguntado sobre PT${nif} em ${registry.settings.url}: respondeu`));
  }
  const waits = registry.settings.whenUnavailable === 'wait';
  return warn(
    'invoicing',
    name,
    both(() => `no answer about PT${nif} at ${registry.settings.url} («${answer.unavailable}»)`, () => `sem resposta sobre PT${nif} em ${registry.settings.url} («${answer.unavailable}»)`),
    waits
      ? {
          en: 'While VIES does not answer, invoices of EU businesses wait (vies.whenUnavailable: wait) and the console lists each with this reason. Check vies.url and that this machine reaches it; or set vies.whenUnavailable to "format-check" (the VAT number is then checked by its format only, and the order says so).',
          pt: 'Enquanto o VIES não responder, as faturas de empresas da UE esperam (vies.whenUnavailable: wait) e a consola mostra cada uma com este motivo. Verifique vies.url e se esta máquina lhe chega; ou defina vies.whenUnavailable como "format-check" (o número de IVA é então verificado só pelo formato, e a encomenda di-lo).',
        }
      : {
          en: 'While VIES does not answer, EU VAT numbers are checked by their format only (vies.whenUnavailable: format-check), and each order says so. Check vies.url and that this machine reaches it.',
          pt: 'Enquanto o VIES não responder, os números de IVA da UE são verificados só pelo formato (vies.whenUnavailable: format-check), e cada encomenda di-lo. Verifique vies.url e se esta máquina lhe chega.',
        },
  );
}
