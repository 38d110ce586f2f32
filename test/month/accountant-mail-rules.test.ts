import { ConfigError, parseConfig } from '../../connector/config/load-config';
import { mayHaveBeenDelivered } from '../../connector/alerts/mailer';
import { mailDueDay, monthBefore } from '../../connector/month/accountant-mail';
import { rawTestConfig } from '../connector/support/harness';

/**
 * The rules under the accountant's e-mail that need no server: which failed sends may still have
 * reached the mailbox (never sent again), when a month's e-mail is due, and the tenants file's
 * refusal of an `accountant` without an SMTP server.
 */

describe('a failed send may have reached the mailbox only when the server heard the message', () => {
  it.each([
    ['the server refused the data (552)', { code: 'EMESSAGE', responseCode: 552, command: 'DATA' }, false],
    ['a recipient refused (550)', { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' }, false],
    ['no connection (ECONNREFUSED)', { code: 'ESOCKET', syscall: 'connect', command: 'CONN' }, false],
    ['no greeting in time', { code: 'ETIMEDOUT', timeoutType: 'GREETING_TIMEOUT', command: 'CONN' }, false],
    ['the login refused', { code: 'EAUTH', command: 'AUTH PLAIN' }, false],
    ['silence after the data', { code: 'ETIMEDOUT', timeoutType: 'SOCKET_TIMEOUT', command: 'CONN' }, true],
    ['the line cut mid-way', { code: 'ECONNECTION', command: 'CONN' }, true],
  ])('%s: %s', (_name, error, maybe) => {
    expect(mayHaveBeenDelivered(Object.assign(new Error('x'), error))).toBe(maybe);
  });
});

describe("a month's e-mail is due on the chosen day of the month after", () => {
  it.each([
    ['2026-11', 5, '2026-12-05'],
    ['2026-12', 1, '2027-01-01'],
    ['2027-01', 28, '2027-02-28'],
  ])('%s on day %i: %s', (month, day, due) => {
    expect(mailDueDay(month, day)).toBe(due);
  });
  it('the month before January is December of the year before', () => {
    expect(monthBefore('2027-01')).toBe('2026-12');
  });
});

describe('the tenants file', () => {
  const raw = (tenant: Record<string, unknown>): Record<string, unknown> => rawTestConfig({ prefix: 'mft-rules', wooOrigin: 'http://shop.test', consumerKey: 'ck_x', consumerSecret: 'cs_y', baseUrl: 'http://sandbox.test/api/v1.1', tenant });

  it('refuses an accountant without an SMTP server to send through, naming the fix', () => {
    let refused: ConfigError | undefined;
    try {
      parseConfig(raw({ accountant: { email: ['conta@gabinete.pt'], day: 5 } }), 'tenants.yaml', {});
    } catch (error) {
      if (error instanceof ConfigError) refused = error;
    }
    expect(refused?.text('pt')).toContain('o e-mail ao contabilista segue pelo servidor SMTP de alerts.email');
  });

  it('reads the accountant: the language of the shop by default, the marks beside the tenants file', () => {
    const config = parseConfig(
      raw({ settings: { language: 'pt', goLiveAt: '2025-01-01T00:00:00Z' }, alerts: { email: { smtp: { host: '127.0.0.1' }, from: 'c@loja.pt', to: ['d@loja.pt'] } }, accountant: { email: ['conta@gabinete.pt'], day: 28 } }),
      '/etc/magnifinance/tenants.yaml',
      {},
    );
    expect(config.tenants[0].accountant).toEqual({ to: ['conta@gabinete.pt'], day: 28, language: 'pt', markerDir: '/etc/magnifinance/month-mail' });
    expect(() => parseConfig(raw({ accountant: { email: ['conta@gabinete.pt'], day: 31 } }), 'tenants.yaml', {})).toThrow(ConfigError);
  });
});
