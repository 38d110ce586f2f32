import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import IORedis from 'ioredis';
import type { Browser } from 'playwright-core';
import { AccountantMail, accountantMailLine, MailMarks, monthAfter, monthBefore, type MailOutcome } from '../../connector/month/accountant-mail';
import { checkAccountantMail } from '../../connector/month/accountant-mail-check';
import { Ledger } from '../../connector/core/ledger';
import { META } from '../../connector/shop/order-meta';
import { buildTenantRuntime, type TenantRuntime } from '../../connector/pipeline/tenant-runtime';
import { localDateTime, shopInstant } from '../../law/shop-date';
import { CHROMIUM, launchChromium } from '../connector/support/console-browser';
import { eventually, portugueseOrder, quietLogger, REDIS_URL, startHarness, type Harness } from '../connector/support/harness';
import { englishWords } from '../support/english-words';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../support/smtp-receiver';

/**
 * The month's e-mail to the accountant, through the connector's mailer to a real SMTP server in
 * this process: on the chosen day (the shop's zone) the previous month's pack goes with its CSV,
 * XLSX and PDF attached, read back here as a mail client reads them; once per tenant and month with
 * two processes at once, after a restart and after Redis lost its data; a refusal is tried again, a
 * send that may have gone is never repeated; the console's month page and the doctor say when.
 */
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(__dirname, '../../docs/screenshots') : join(tmpdir(), 'magnifinance-month-screenshots');
const ZONE = 'Europe/Lisbon';
const ACCOUNTANT_TO = 'contabilista@gabinete.pt';

describe("the month's e-mail to the accountant", () => {
  let smtp: SmtpReceiver;
  let h: Harness;
  let redis: IORedis;
  let tenant: TenantRuntime;
  let markerDir: string;
  const orders: number[] = [];
  const thisMonth = localDateTime(new Date(), ZONE).date.slice(0, 7);
  const lastMonth = monthBefore(thisMonth);
  /** 09:00 in Lisbon on the first of a month: the day the tenant chose. */
  const firstOf = (month: string): number => shopInstant(`${month}-01`, ZONE) + 9 * 3_600_000;
  const mailsOf = (month: string): ReceivedMail[] => smtp.mails.filter((m) => m.attachments.some((a) => a.filename === `shop1-${month}.csv`));
  const worker = (now: () => number): AccountantMail => new AccountantMail({ tenants: [['shop1', tenant]], redis, prefix: h.prefix, ledger: new Ledger(redis, h.prefix), logger: quietLogger(), publicUrl: 'http://connector.test', now });

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    markerDir = mkdtempSync(join(tmpdir(), 'month-mail-'));
    h = await startHarness({
      settings: { language: 'pt' },
      tenant: {
        name: 'Loja Azul',
        alerts: { email: { smtp: { host: '127.0.0.1', port: smtp.port, user: smtp.user, password: smtp.password, timeoutMs: 1_500 }, from: 'conector@loja.pt', to: ['dono@loja.pt'] } },
        // Day 1: the running connector's own worker sends last month's e-mail as soon as it starts.
        accountant: { email: [ACCOUNTANT_TO], day: 1, language: 'pt', markerDir },
      },
    });
    redis = new IORedis(REDIS_URL);
    tenant = buildTenantRuntime(h.config.tenants[0]);
    for (let i = 0; i < 3; i += 1) orders.push(Number(h.woo.putOrder(portugueseOrder()).id));
    expect((await fetch(`${h.connector?.origin}/admin/api/sweep`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}`, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'shop1' }) })).status).toBe(200);
    for (const id of orders) await eventually(`order ${id} invoiced`, () => h.woo.meta(id, META.documentNumber), 60_000);
  }, 120_000);
  afterAll(async () => {
    await h.close();
    redis.disconnect();
    await smtp.close();
  });

  it("is sent by the running connector's worker on the day, once, and said on the month page (screenshots) and by the doctor", async () => {
    const mail = await eventually("last month's e-mail", () => mailsOf(lastMonth)[0], 30_000);
    expect(mail.to).toEqual([ACCOUNTANT_TO]);
    expect(mail.from).toBe('conector@loja.pt');
    expect(mail.attachments.map((a) => a.filename).sort()).toEqual([`shop1-${lastMonth}.csv`, `shop1-${lastMonth}.pdf`, `shop1-${lastMonth}.xlsx`]);
    // The mark on disk says sent (once the server answered), with the Message-ID the server received.
    const markOnDisk = (): { state: string; messageId: string } => JSON.parse(readFileSync(join(markerDir, 'shop1', `${lastMonth}.json`), 'utf8')) as { state: string; messageId: string };
    const onDisk = await eventually('the mark on disk says sent', () => (markOnDisk().state === 'sent' ? markOnDisk() : undefined));
    expect(mail.headers.get('message-id')).toBe(onDisk.messageId);

    const page = await (await fetch(`${h.connector?.origin}/console/shop1/month/${lastMonth}?lang=pt`, { headers: { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` } })).text();
    expect(page).toContain('E-mail ao contabilista');
    expect(page).toContain(`Enviado a ${ACCOUNTANT_TO} a `);
    const doctor = await checkAccountantMail(redis, h.prefix, tenant, Date.now());
    expect(doctor).toMatchObject({ status: 'ok', detail: expect.stringContaining(`${lastMonth}: Sent to ${ACCOUNTANT_TO} on `) });
    expect(doctor?.pt?.detail).toContain('Enviado a ');
    // This month's page says when its e-mail goes.
    expect(await accountantMailLine(redis, h.prefix, tenant, thisMonth, 'en')).toEqual({ tone: 'muted', text: expect.stringContaining(`Goes to ${ACCOUNTANT_TO} on 01/${monthAfter(thisMonth).slice(5, 7)}/${monthAfter(thisMonth).slice(0, 4)}`) });

    if (!existsSync(CHROMIUM)) return;
    const browser: Browser = await launchChromium();
    try {
      mkdirSync(SHOTS, { recursive: true });
      for (const [lang, width] of [['pt', 1280], ['pt', 390], ['en', 1280], ['en', 390]] as const) {
        const context = await browser.newContext({ httpCredentials: { username: 'admin', password: 'admin-pw' }, viewport: { width, height: 900 }, locale: lang === 'pt' ? 'pt-PT' : 'en-GB' });
        const tab = await context.newPage();
        await tab.goto(`${h.connector?.origin}/console/shop1/month/${lastMonth}?lang=${lang}`);
        const seen = (await tab.evaluate('document.body.innerText')) as string;
        if (lang === 'pt') expect(englishWords(seen)).toEqual([]);
        else expect(seen).toContain(`Sent to ${ACCOUNTANT_TO}`);
        expect((await tab.evaluate('document.documentElement.scrollWidth')) as number).toBeLessThanOrEqual(width);
        await tab.locator('#accountant-mail').scrollIntoViewIfNeeded();
        await tab.screenshot({ path: join(SHOTS, `console-month-mail-${lang}-${width}.png`), fullPage: true });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }, 90_000);

  it('sends the month once with two processes at once, its files read back; a restart and a Redis that lost its data send nothing more', async () => {
    // The first of next month, 09:00 in Lisbon: this month's e-mail is due.
    const due = firstOf(monthAfter(thisMonth));
    // Chosen for the 2nd, it is not due on the 1st.
    const settings = tenant.config.accountant;
    if (!settings) throw new Error('no accountant');
    expect(await worker(() => due).sendIfDue({ ...tenant, config: { ...tenant.config, accountant: { ...settings, day: 2 } } })).toBe<MailOutcome>('not-due');
    const outcomes = await Promise.all([worker(() => due).sendIfDue(tenant), worker(() => due).sendIfDue(tenant)]);
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(1);
    expect(mailsOf(thisMonth)).toHaveLength(1);
    const [mail] = mailsOf(thisMonth);
    expect(mail.subject).toMatch(/^Loja Azul: o mês de \S+ de \d{4} \(/);
    expect(mail.text).toContain(`Segue o pacote do mês de `);
    expect(mail.text).toContain('3 encomendas, 3 documentos emitidos pelo conector.');
    expect(mail.text).toContain(`http://connector.test/console/shop1/month/${thisMonth}`);
    const byName = new Map(mail.attachments.map((a) => [a.filename, a]));
    const csv = byName.get(`shop1-${thisMonth}.csv`);
    expect(csv?.contentType).toBe('text/csv');
    expect(csv?.content.toString('utf8').startsWith(`\ufeffO mês ${thisMonth} · shop1`)).toBe(true);
    const numbers = await Promise.all(orders.map(async (id) => (await h.connector?.ledger.get({ tenant: 'shop1', orderId: id, purpose: 'invoice' }))?.documentNumber as string));
    for (const number of numbers) expect(csv?.content.toString('utf8')).toContain(`${number},FR,`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(byName.get(`shop1-${thisMonth}.xlsx`)?.content as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(expect.arrayContaining(['Resumo', 'IVA', 'Documentos']));
    expect(book.getWorksheet('Documentos')?.rowCount).toBe(orders.length + 1);
    const pdf = byName.get(`shop1-${thisMonth}.pdf`)?.content as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
    const others = smtp.mails.filter((m) => !m.to.includes(ACCOUNTANT_TO)).map((m) => m.subject);
    expect(others).toEqual([]);

    // A restart: a new process finds it sent.
    expect(await worker(() => due + 60_000).sendIfDue(tenant)).toBe<MailOutcome>('already');
    // Redis lost its data: the mark on disk answers, Redis is told again, nothing is sent.
    await redis.del(new MailMarks(redis, h.prefix).key('shop1'));
    expect(await worker(() => due + 120_000).sendIfDue(tenant)).toBe<MailOutcome>('already');
    expect((await new MailMarks(redis, h.prefix).inRedis('shop1', thisMonth))?.state).toBe('sent');
    expect(mailsOf(thisMonth)).toHaveLength(1);
  }, 60_000);

  it('tries a refused e-mail again later, and never repeats one the server may have taken (said on the page)', async () => {
    // Two months ahead: refused once (a full mailbox), then sent on the retry, once.
    const refusedMonth = monthAfter(thisMonth);
    const due = firstOf(monthAfter(refusedMonth));
    smtp.refuseNext(1, ACCOUNTANT_TO);
    expect(await worker(() => due).sendIfDue(tenant)).toBe<MailOutcome>('failed');
    expect(existsSync(join(markerDir, 'shop1', `${refusedMonth}.json`))).toBe(false);
    const failed = await new MailMarks(redis, h.prefix).inRedis('shop1', refusedMonth);
    expect(failed).toMatchObject({ state: 'failed', failures: 1, error: expect.stringContaining('mailbox full') });
    expect((await accountantMailLine(redis, h.prefix, tenant, refusedMonth, 'pt'))?.text).toContain('Ainda não enviado a ');
    // Before its retry time nothing is sent; after it, once.
    expect(await worker(() => due + 60_000).sendIfDue(tenant)).toBe<MailOutcome>('held-elsewhere');
    const retryAt = failed?.state === 'failed' ? failed.retryAt : 0;
    expect(await worker(() => retryAt + 1).sendIfDue(tenant)).toBe<MailOutcome>('sent');
    expect(mailsOf(refusedMonth)).toHaveLength(1);

    // Three months ahead: the server goes quiet after the message's data. Perhaps delivered: kept as such, not sent again.
    const quietMonth = monthAfter(refusedMonth);
    const quietDue = firstOf(monthAfter(quietMonth));
    // Counted by the month's own attachment: another message the connector sends meanwhile (an alert) is not this one.
    const unansweredOf = (month: string): ReceivedMail[] => smtp.unanswered.filter((m) => m.attachments.some((a) => a.filename === `shop1-${month}.csv`));
    smtp.silentNext(1, ACCOUNTANT_TO);
    expect(await worker(() => quietDue).sendIfDue(tenant)).toBe<MailOutcome>('uncertain');
    expect(unansweredOf(quietMonth)).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(markerDir, 'shop1', `${quietMonth}.json`), 'utf8'))).toMatchObject({ state: 'uncertain' });
    await redis.del(new MailMarks(redis, h.prefix).key('shop1'));
    expect(await worker(() => quietDue + 3_600_000).sendIfDue(tenant)).toBe<MailOutcome>('already');
    expect(unansweredOf(quietMonth)).toHaveLength(1);
    expect(mailsOf(quietMonth)).toHaveLength(0);
    const line = await accountantMailLine(redis, h.prefix, tenant, quietMonth, 'pt');
    expect(line).toEqual({ tone: 'warn', text: expect.stringContaining(`Pode não ter chegado a ${ACCOUNTANT_TO}`) });
    expect(line?.text).toContain(join(markerDir, 'shop1', `${quietMonth}.json`));
  }, 60_000);
});
