import type { TenantConfig } from '../config/load-config';
import { platformOf } from '../../platforms/registry';
import type { RefusedWords } from './shop-answer-words';

/** The tenant's platform's words for a shop that refuses the connector's credentials; undefined: the REST key's words. */
export function refusedWordsOf(tenant: TenantConfig): RefusedWords | undefined {
  const platform = platformOf(tenant);
  const words = platform.refusedWords;
  return words ? (lang) => words(lang, tenant) : undefined;
}
