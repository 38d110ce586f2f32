import pino, { type Logger } from 'pino';

/** Paths that may hold a secret anywhere in a log line; pino replaces them before writing. */
export const REDACTED_PATHS = [
  'token',
  'partnerToken',
  'password',
  'consumerKey',
  'consumerSecret',
  'webhookSecret',
  'linkSecret',
  'secret',
  '*.token',
  '*.partnerToken',
  '*.password',
  '*.consumerKey',
  '*.consumerSecret',
  '*.webhookSecret',
  '*.linkSecret',
  '*.secret',
  'headers.authorization',
  'headers.token',
  'headers["x-wc-webhook-signature"]',
  'req.headers.authorization',
  'req.headers.token',
  'req.headers["x-wc-webhook-signature"]',
  'url', // the Redis URL may carry a password; tenant URLs are logged under other names
];

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const settings = { level, base: { service: 'magnifinance-connector' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
