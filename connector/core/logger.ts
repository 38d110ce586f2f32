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

const LEVEL_METHODS: ReadonlySet<string> = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const writeNothing = (): void => undefined;

/**
 * `logger.child(bindings)`, made when the first line is written: pino's child passes each binding
 * through the redaction paths (about 25 µs a child, two per order), and a job run at level warn
 * usually writes no line. A line of a level that is off writes nothing and makes no child.
 */
export function childOnFirstLine(logger: Logger, bindings: pino.Bindings): Logger {
  let child: Logger | undefined;
  const made = (): Logger => (child ??= logger.child(bindings));
  return new Proxy(logger, {
    get(target, property) {
      if (child === undefined && typeof property === 'string' && LEVEL_METHODS.has(property) && !target.isLevelEnabled(property)) return writeNothing;
      const real = made();
      const value: unknown = Reflect.get(real, property, real);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(real) : value;
    },
    set(_target, property, value) {
      return Reflect.set(made(), property, value);
    },
  });
}
