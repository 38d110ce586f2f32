import { localDateTime } from '../../law/shop-date';
import { ok, warn, type Check } from '../doctor/check';
import { doctorSays } from '../doctor/doctor-messages';
import type { RedisClient } from '../core/redis-connection';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { accountantMailLine, MailMarks, monthBefore } from './accountant-mail';
import { MONTH_SENTENCES } from './month-sentences';

/**
 * The doctor's line of the month's e-mail to the accountant: the last month due (sent when? perhaps
 * not?), or, before this month's day, the one sent last month and when the next goes. WARN when the
 * e-mail due was not sent (failed, uncertain, or no worker sent it), with the words the console shows.
 */
export async function checkAccountantMail(redis: RedisClient | undefined, prefix: string, tenant: TenantRuntime, now: number): Promise<Check | undefined> {
  const settings = tenant.config.accountant;
  if (!settings) return undefined;
  const name = { en: MONTH_SENTENCES.say('en', 'mail-label'), pt: MONTH_SENTENCES.say('pt', 'mail-label') };
  if (!redis) return warn('orders', name, doctorSays('mail-no-redis'), doctorSays('mail-no-redis-fix'));
  const today = localDateTime(new Date(now), tenant.mapping.shopTimeZone).date;
  const due = Number(today.slice(8, 10)) >= settings.day;
  const month = due ? monthBefore(today.slice(0, 7)) : monthBefore(monthBefore(today.slice(0, 7)));
  const [en, pt] = await Promise.all([accountantMailLine(redis, prefix, tenant, month, 'en'), accountantMailLine(redis, prefix, tenant, month, 'pt')]);
  if (!en || !pt) return undefined;
  const mark = await new MailMarks(redis, prefix).of(settings, tenant.config.id, month);
  const detail = doctorSays('mail-month', { month, line: { en: en.text, pt: pt.text } });
  if (mark?.state === 'sent' || mark?.state === 'sending' || mark?.state === 'claimed') return ok('orders', name, detail);
  if (!due && mark === undefined) {
    const next = monthBefore(today.slice(0, 7));
    const [nextEn, nextPt] = await Promise.all([accountantMailLine(redis, prefix, tenant, next, 'en'), accountantMailLine(redis, prefix, tenant, next, 'pt')]);
    return ok('orders', name, doctorSays('mail-month', { month: next, line: { en: nextEn?.text ?? '', pt: nextPt?.text ?? '' } }));
  }
  return warn('orders', name, detail, doctorSays(mark === undefined ? 'mail-no-worker-fix' : 'see-above'));
}
