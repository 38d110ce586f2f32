import { z } from 'zod';
import { vatNumberToCheck } from '../../law/buyer-identity';
import { warning, type MappingNote } from '../../law/mapping-errors';
import type { MappingSettings } from '../../law/mapping-settings';
import type { Sale } from '../../law/sale';
import { vatPrefixOf, type VatNumberVerdict } from '../../law/vat-number';

/** The European Commission's VIES REST service (POST {countryCode, vatNumber}). */
export const VIES_REST_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number';

export const ViesSettingsSchema = z
  .object({
    url: z.url({ protocol: /^https?$/ }).default(VIES_REST_URL),
    timeoutMs: z.number().int().positive().default(10_000),
    /**
     * When VIES cannot answer (a member state's registry down, VIES busy): `wait` keeps the invoice
     * back and tries again (BullMQ attempts, then the sweep; a person is told after the attempts);
     * `format-check` issues on the number's format alone, with a warning note on the order.
     */
    whenUnavailable: z.enum(['wait', 'format-check']).default('wait'),
    /** How long an answer is reused (per connector process). An "invalid" answer is kept one hour at most. */
    cacheHours: z.number().positive().max(24 * 30).default(24),
  })
  .strict();
export type ViesSettings = z.infer<typeof ViesSettingsSchema>;

/** VIES's answer, or why there is none (its error name, a timeout, an HTTP status). */
export type ViesAnswer = { verdict: VatNumberVerdict } | { unavailable: string };

// A check answers `valid` (check-vat-number) or `isValid` (the ms/{country}/vat/{number} form); an
// error is `{actionSucceed: false, errorWrappers: [{error}]}`, or a `userError` other than VALID/INVALID.
const ViesBodySchema = z.looseObject({
  valid: z.boolean().optional(),
  isValid: z.boolean().optional(),
  userError: z.string().optional(),
  actionSucceed: z.boolean().optional(),
  errorWrappers: z.array(z.looseObject({ error: z.string().optional(), message: z.string().optional() })).optional(),
});

const MAX_CACHED = 10_000;
const INVALID_CACHE_MS = 3_600_000;

/**
 * Asks VIES whether an EU VAT number is registered. The mapping stays pure: the pipeline asks
 * before mapping and passes the verdict (see `checkVatNumber` in buyer-identity.ts).
 */
export class ViesRegistry {
  private readonly cache = new Map<string, { verdict: VatNumberVerdict; until: number }>();

  constructor(
    readonly settings: ViesSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async check(countryCode: string, number: string): Promise<ViesAnswer> {
    const key = `${countryCode}:${number}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > this.now()) return { verdict: cached.verdict };
    const answer = await this.ask(countryCode, number);
    if ('verdict' in answer) {
      const ttl = this.settings.cacheHours * 3_600_000;
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, { verdict: answer.verdict, until: this.now() + (answer.verdict.valid ? ttl : Math.min(ttl, INVALID_CACHE_MS)) });
    }
    return answer;
  }

  private async ask(countryCode: string, number: string): Promise<ViesAnswer> {
    let response: Response;
    try {
      response = await fetch(this.settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ countryCode: vatPrefixOf(countryCode), vatNumber: number }),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      // fetch rejects with a DOMException (not an Error in every Node version) on timeout.
      const { name, message, cause } = error as { name?: string; message?: string; cause?: { message?: string } };
      if (name === 'TimeoutError' || name === 'AbortError') return { unavailable: `no answer within ${this.settings.timeoutMs} ms` };
      return { unavailable: `unreachable (${cause?.message ?? message ?? String(error)})` };
    }
    const text = await response.text().catch(() => '');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { unavailable: `HTTP ${response.status}, not a VIES answer` };
    }
    const body = ViesBodySchema.safeParse(json);
    if (!body.success) return { unavailable: `HTTP ${response.status}, not a VIES answer` };
    const { valid, isValid, userError, actionSucceed, errorWrappers } = body.data;
    const error = errorWrappers?.map((w) => w.error ?? w.message).find(Boolean) ?? (userError && !/^(VALID|INVALID)$/.test(userError) ? userError : undefined);
    if (actionSucceed === false || error) return { unavailable: error ?? `HTTP ${response.status}` };
    const answer = valid ?? isValid;
    if (!response.ok || answer === undefined) return { unavailable: `HTTP ${response.status}` };
    return { verdict: { countryCode, number, valid: answer } };
  }
}

/** VIES could not confirm the buyer's VAT number and the tenant chose to wait for it (`whenUnavailable: wait`). */
export class ViesUnavailableError extends Error {
  override readonly name = 'ViesUnavailableError';
  constructor(
    readonly vatNumber: string,
    readonly why: string,
  ) {
    super(`the EU VAT registry (VIES) could not confirm VAT number ${vatNumber}: ${why}`);
  }
}

/**
 * The VIES verdict on the order's EU VAT number, if it has one, for the mapping; when VIES cannot
 * answer: waits (throws ViesUnavailableError, a retryable failure) or returns a warning note for
 * the order, per `whenUnavailable`.
 */
export async function viesVerdictFor(registry: ViesRegistry, sale: Sale, settings: MappingSettings): Promise<{ verdict?: VatNumberVerdict; note?: MappingNote; formatOnly?: boolean }> {
  const wanted = vatNumberToCheck(sale, settings);
  if (!wanted) return {};
  const answer = await registry.check(wanted.countryCode, wanted.number);
  if ('verdict' in answer) return { verdict: answer.verdict };
  const text = `${vatPrefixOf(wanted.countryCode)}${wanted.number}`;
  if (registry.settings.whenUnavailable === 'wait') throw new ViesUnavailableError(text, answer.unavailable);
  return {
    note: warning('vies-unavailable-format-only', { vat: text, why: answer.unavailable }),
    formatOnly: true,
  };
}
