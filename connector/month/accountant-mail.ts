import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { localDateTime } from '../../law/shop-date';
import type { AccountantMailSettings } from '../config/load-config';
import type { Ledger } from '../core/ledger';
import type { RedisClient } from '../core/redis-connection';
import { smtpMailer, MailNotSent, type Mailer } from '../alerts/mailer';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import { packCsv, packPdf, packXlsx } from './month-files';
import type { MonthPack } from './month-pack';
import { tenantMonthPack } from './month-service';
import { findingKind } from './month-words';
import { MONTH_SENTENCES } from './month-sentences';

/**
 * The month's e-mail to the accountant: on the day the tenant chose (`accountant.day`, in the
 * shop's time zone), the previous month's pack is made and sent with its CSV, XLSX and PDF attached,
 * through the tenant's SMTP server (alerts.email), once per tenant and month.
 *
 * Once, with several worker processes, restarts and a Redis that may lose its data: a process first
 * claims the month in Redis (a lease: the others wait), then, right before the message goes,
 * creates the month's mark on disk (`<markerDir>/<tenant>/<yyyy-mm>.json`, exclusive create): only
 * the process that created it sends. The mark then says `sent` (with the Message-ID), and Redis is
 * told the same. A Redis that lost its data is repaired from the mark on disk and sends nothing;
 * a mark on disk is never overwritten by a second send. A failure the SMTP server answered (a
 * refusal, no connection) removes the mark and is tried again later; one where the message may have
 * gone (the line cut after its data) is kept as `uncertain`, never sent again by itself, and said on
 * the console's month page and by the doctor, so a person asks the accountant.
 * Late is better than never: a connector that was down on the day sends on its next run in that month.
 */

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** A process that claimed the month and died hands it over after this long (a pack of 10,000 orders takes about 10 s). */
const LEASE_MS = 10 * 60_000;
const FIRST_RETRY_MS = 5 * 60_000;
const MAX_RETRY_MS = 6 * 3_600_000;

export const MailMarkSchema = z.discriminatedUnion('state', [
  /** Claimed in Redis: the pack is being made (a lease). Never on disk. */
  z.object({ state: z.literal('claimed'), at: z.number(), by: z.string() }),
  /** On disk: the message is on its way (created right before the SMTP conversation). */
  z.object({ state: z.literal('sending'), at: z.number(), by: z.string() }),
  z.object({ state: z.literal('sent'), at: z.number(), to: z.array(z.string()), messageId: z.string() }),
  /** Not sent, said by the server (or never reached); tried again from `retryAt`. Redis only. */
  z.object({ state: z.literal('failed'), at: z.number(), error: z.string(), failures: z.number().int().min(1), retryAt: z.number() }),
  /** The message may have gone: never sent again by itself; a person asks the accountant. */
  z.object({ state: z.literal('uncertain'), at: z.number(), error: z.string() }),
]);
export type MailMark = z.infer<typeof MailMarkSchema>;

function parseMark(text: string | null | undefined): MailMark | undefined {
  if (!text) return undefined;
  try {
    const parsed = MailMarkSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** yyyy-mm of the month before. */
export function monthBefore(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

/** yyyy-mm of the month after. */
export function monthAfter(month: string): string {
  const [year, m] = month.split('-').map(Number);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** The day a month's e-mail is due: `day` of the month after it. */
export function mailDueDay(month: string, day: number): string {
  return `${monthAfter(month)}-${String(day).padStart(2, '0')}`;
}

/** Claims the month when nothing holds it: no mark, a failure due again, or a claim whose process died. */
const CLAIM = `local current = redis.call('hget', KEYS[1], ARGV[1])
if current then
  local ok, mark = pcall(cjson.decode, current)
  if ok and type(mark) == 'table' then
    local state = mark['state']
    local now = tonumber(ARGV[3])
    if state == 'failed' and tonumber(mark['retryAt']) <= now then
    elseif state == 'claimed' and tonumber(mark['at']) + tonumber(ARGV[4]) <= now then
    else return 0 end
  end
end
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return 1`;

/** Where the marks are: one hash per tenant in Redis, one file per tenant and month on disk. */
export class MailMarks {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  key(tenant: string): string {
    return `${this.prefix}:month:mail:${tenant}`;
  }

  file(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string): string {
    if (!MONTH.test(month)) throw new Error(`not a month: ${month}`);
    return join(settings.markerDir, encodeURIComponent(tenant), `${month}.json`);
  }

  async inRedis(tenant: string, month: string): Promise<MailMark | undefined> {
    return parseMark(await this.redis.hget(this.key(tenant), month));
  }

  async onDisk(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string): Promise<MailMark | undefined> {
    try {
      return parseMark(await readFile(this.file(settings, tenant, month), 'utf8')) ?? { state: 'uncertain', at: 0, error: 'the mark on disk is not readable' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** What a person is told: the mark on disk wins (it survives Redis), else Redis's. */
  async of(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string): Promise<MailMark | undefined> {
    const disk = await this.onDisk(settings, tenant, month).catch(() => undefined);
    if (disk && disk.state !== 'sending') return disk;
    return (await this.inRedis(tenant, month)) ?? disk;
  }

  async claim(tenant: string, month: string, by: string, now: number): Promise<boolean> {
    const mark: MailMark = { state: 'claimed', at: now, by };
    return Number(await this.redis.eval(CLAIM, 1, this.key(tenant), month, JSON.stringify(mark), String(now), String(LEASE_MS))) === 1;
  }

  async setRedis(tenant: string, month: string, mark: MailMark): Promise<void> {
    await this.redis.hset(this.key(tenant), month, JSON.stringify(mark));
  }

  /** Creates the mark on disk only if there is none: true for the one process that may send. */
  async createOnDisk(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string, mark: MailMark): Promise<boolean> {
    const path = this.file(settings, tenant, month);
    await mkdir(join(settings.markerDir, encodeURIComponent(tenant)), { recursive: true });
    try {
      await writeFile(path, JSON.stringify(mark), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /** Replaces the mark on disk whole (written beside it, then renamed over it). */
  async replaceOnDisk(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string, mark: MailMark): Promise<void> {
    const path = this.file(settings, tenant, month);
    const next = `${path}.${randomUUID()}.tmp`;
    await writeFile(next, JSON.stringify(mark));
    await rename(next, path);
  }

  async removeFromDisk(settings: Pick<AccountantMailSettings, 'markerDir'>, tenant: string, month: string): Promise<void> {
    await unlink(this.file(settings, tenant, month)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

export interface AccountantMailDeps {
  tenants: Iterable<[string, TenantRuntime]>;
  redis: RedisClient;
  prefix: string;
  ledger: Ledger;
  logger: Logger;
  /** The console's origin: the e-mail links the month's page. */
  publicUrl: string;
  now?: () => number;
  /** The SMTP mailer of a tenant (default: its alerts.email server and sender). */
  mailerOf?: (tenant: TenantRuntime) => Mailer | undefined;
  everyMs?: number;
}

export type MailOutcome = 'not-due' | 'not-configured' | 'already' | 'held-elsewhere' | 'sent' | 'failed' | 'uncertain';

/** The shop as people know it: its name, else its host. */
function shopNameOf(tenant: TenantRuntime): string {
  if (tenant.config.name) return tenant.config.name;
  try {
    return new URL(tenant.config.shop.url).host;
  } catch {
    return tenant.config.id;
  }
}

/** The subject and text of the e-mail, in the accountant's language. */
export function accountantMailText(pack: MonthPack, settings: Pick<AccountantMailSettings, 'language'>, shop: string, link: string): { subject: string; text: string } {
  const lang = settings.language;
  const attention = pack.findings.filter((f) => findingKind(f) === 'attention').length;
  const explained = pack.findings.length - attention;
  return {
    subject: MONTH_SENTENCES.say(lang, 'mail-subject', { month: pack.month, shop, attention }),
    text: MONTH_SENTENCES.say(lang, 'mail-body', { month: pack.month, shop, orders: pack.orders.ofMonth, documents: pack.documents.length, attention, explained, link, closed: pack.signOff !== undefined }),
  };
}

export class AccountantMail {
  private readonly token = randomUUID();
  private readonly marks: MailMarks;
  private readonly mailers = new Map<string, Mailer>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: AccountantMailDeps) {
    this.marks = new MailMarks(deps.redis, deps.prefix);
  }

  /** Looks every `everyMs` (a minute) whether a tenant's e-mail is due. */
  start(): void {
    const loop = (): void => {
      if (this.stopped) return;
      this.running = this.tick()
        .then(() => undefined)
        .catch((error: Error) => this.deps.logger.warn({ err: error.message }, 'accountant e-mail round failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.deps.everyMs ?? 60_000);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    for (const mailer of this.mailers.values()) mailer.close();
  }

  async tick(): Promise<Map<string, MailOutcome>> {
    const outcomes = new Map<string, MailOutcome>();
    for (const [id, tenant] of this.deps.tenants) {
      if (this.stopped) break;
      try {
        outcomes.set(id, await this.sendIfDue(tenant));
      } catch (error) {
        this.deps.logger.error({ tenant: id, err: (error as Error).message }, 'accountant e-mail: could not decide or send');
      }
    }
    return outcomes;
  }

  private mailerOf(tenant: TenantRuntime): Mailer | undefined {
    const known = this.mailers.get(tenant.config.id);
    if (known) return known;
    const email = tenant.config.alerts?.email;
    const mailer = this.deps.mailerOf ? this.deps.mailerOf(tenant) : email ? smtpMailer(email.smtp, email.from) : undefined;
    if (mailer) this.mailers.set(tenant.config.id, mailer);
    return mailer;
  }

  /** The previous month's e-mail of one tenant, if due today (or since) and not sent. */
  async sendIfDue(tenant: TenantRuntime): Promise<MailOutcome> {
    const settings = tenant.config.accountant;
    if (!settings) return 'not-configured';
    const now = (this.deps.now ?? Date.now)();
    const today = localDateTime(new Date(now), tenant.mapping.shopTimeZone).date;
    if (Number(today.slice(8, 10)) < settings.day) return 'not-due';
    const month = monthBefore(today.slice(0, 7));
    const id = tenant.config.id;
    const held = await this.marks.inRedis(id, month);
    if (held && (held.state === 'sent' || held.state === 'uncertain')) return 'already';
    if (!(await this.marks.claim(id, month, this.token, now))) return 'held-elsewhere';
    // Redis may have lost what the disk remembers: a month sent (or perhaps sent) stays so.
    const disk = await this.marks.onDisk(settings, id, month);
    if (disk) return this.fromDisk(settings, id, month, disk, now);
    const pack = await tenantMonthPack(tenant, { redis: this.deps.redis, prefix: this.deps.prefix, ledger: this.deps.ledger }, month);
    const lang = settings.language;
    const shop = shopNameOf(tenant);
    const name = `${id}-${month}`;
    const link = `${this.deps.publicUrl.replace(/\/+$/, '')}/console/${encodeURIComponent(id)}/month/${month}`;
    const { subject, text } = accountantMailText(pack, settings, shop, link);
    const attachments = [
      { filename: `${name}.csv`, content: packCsv(pack, lang), contentType: 'text/csv; charset=utf-8' },
      { filename: `${name}.xlsx`, content: await packXlsx(pack, lang), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      { filename: `${name}.pdf`, content: await packPdf(pack, lang, shop), contentType: 'application/pdf' },
    ];
    const mailer = this.mailerOf(tenant);
    if (!mailer) {
      await this.fail(id, month, 'no SMTP server (alerts.email)', held, now);
      return 'failed';
    }
    // The one process that creates the mark on disk sends; any other stops here.
    const at = (this.deps.now ?? Date.now)();
    if (!(await this.marks.createOnDisk(settings, id, month, { state: 'sending', at, by: this.token }))) {
      const other = await this.marks.onDisk(settings, id, month);
      return other ? this.fromDisk(settings, id, month, other, now) : 'held-elsewhere';
    }
    try {
      const sent = await mailer.send({ to: settings.to, subject, text, attachments, messageId: `<month-${month}.${encodeURIComponent(id)}.${this.token}@magnifinance-connector>` });
      const mark: MailMark = { state: 'sent', at: (this.deps.now ?? Date.now)(), to: settings.to, messageId: sent.messageId };
      await this.marks.replaceOnDisk(settings, id, month, mark);
      await this.marks.setRedis(id, month, mark);
      this.deps.logger.info({ tenant: id, month, to: settings.to.length }, "the month's e-mail went to the accountant");
      return 'sent';
    } catch (error) {
      if (error instanceof MailNotSent && !error.maybeDelivered) {
        await this.marks.removeFromDisk(settings, id, month);
        await this.fail(id, month, error.message, held, now);
        return 'failed';
      }
      const mark: MailMark = { state: 'uncertain', at, error: (error as Error).message.slice(0, 300) };
      await this.marks.replaceOnDisk(settings, id, month, mark);
      await this.marks.setRedis(id, month, mark);
      this.deps.logger.error({ tenant: id, month, err: mark.error }, "the month's e-mail may not have reached the accountant: not sent again by itself");
      return 'uncertain';
    }
  }

  /** The mark on disk decides: sent stays sent; a send begun by a process that is gone is uncertain. */
  private async fromDisk(settings: AccountantMailSettings, id: string, month: string, disk: MailMark, now: number): Promise<MailOutcome> {
    if (disk.state === 'sent' || disk.state === 'uncertain') {
      await this.marks.setRedis(id, month, disk);
      return 'already';
    }
    // A send begun: another process is in the SMTP conversation, or died in it (then it stays uncertain).
    if (now - disk.at > LEASE_MS) {
      const mark: MailMark = { state: 'uncertain', at: disk.at, error: 'the process sending it stopped before the SMTP server answered' };
      await this.marks.replaceOnDisk(settings, id, month, mark);
      await this.marks.setRedis(id, month, mark);
      return 'uncertain';
    }
    return 'held-elsewhere';
  }

  private async fail(id: string, month: string, error: string, before: MailMark | undefined, now: number): Promise<void> {
    const failures = before?.state === 'failed' ? before.failures + 1 : 1;
    const retryAt = now + Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1));
    await this.marks.setRedis(id, month, { state: 'failed', at: now, error: error.slice(0, 300), failures, retryAt });
    this.deps.logger.warn({ tenant: id, month, failures, retryAt: new Date(retryAt).toISOString(), err: error }, "the month's e-mail to the accountant was not sent; tried again later");
  }
}

/** The line a person reads of a month's e-mail (console, doctor): sent, due, to be tried again, or uncertain. */
export async function accountantMailLine(redis: RedisClient, prefix: string, tenant: TenantRuntime, month: string, lang: 'pt' | 'en'): Promise<{ tone: 'good' | 'muted' | 'warn'; text: string } | undefined> {
  const settings = tenant.config.accountant;
  if (!settings) return undefined;
  const zone = tenant.mapping.shopTimeZone;
  const marks = new MailMarks(redis, prefix);
  const mark = await marks.of(settings, tenant.config.id, month);
  const to = settings.to.join(', ');
  const when = (at: number): { day: string; time: string } => {
    const local = localDateTime(new Date(at), zone);
    return { day: local.date, time: local.time.slice(0, 5) };
  };
  if (mark?.state === 'sent') return { tone: 'good', text: MONTH_SENTENCES.say(lang, 'mail-sent', { to: mark.to.join(', '), ...when(mark.at) }) };
  if (mark?.state === 'uncertain') return { tone: 'warn', text: MONTH_SENTENCES.say(lang, 'mail-uncertain', { to, error: mark.error, file: marks.file(settings, tenant.config.id, month), ...when(mark.at) }) };
  if (mark?.state === 'failed') return { tone: 'warn', text: MONTH_SENTENCES.say(lang, 'mail-failed', { to, error: mark.error, retry: when(mark.retryAt).time, retryDay: when(mark.retryAt).day }) };
  if (mark?.state === 'sending' || mark?.state === 'claimed') return { tone: 'muted', text: MONTH_SENTENCES.say(lang, 'mail-sending', { to }) };
  return { tone: 'muted', text: MONTH_SENTENCES.say(lang, 'mail-due', { to, day: mailDueDay(month, settings.day) }) };
}
