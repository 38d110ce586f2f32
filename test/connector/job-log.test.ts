import { childOnFirstLine, createLogger } from '../../connector/core/logger';

/** A job run's logger (issue 29): pino's child, with the run's bindings, made only when a line is written. */
describe("a job run's logger", () => {
  function capture(level: string): { logger: ReturnType<typeof createLogger>; lines: Record<string, unknown>[] } {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    return { logger, lines };
  }
  const bindings = { tenant: 'loja1', orderId: 7, purpose: 'invoice', jobId: 'invoice.loja1.7' };

  it('a line of a level that is off writes nothing and makes no child', () => {
    const { logger, lines } = capture('warn');
    const child = jest.spyOn(logger, 'child');
    const log = childOnFirstLine(logger, bindings);
    log.info({ outcome: 'written back' }, 'document job done');
    log.debug('nothing');
    expect(lines).toEqual([]);
    expect(child).not.toHaveBeenCalled();
  });

  it('lines that are written carry the bindings, redacted as the parent redacts, from one child', () => {
    const { logger, lines } = capture('info');
    const child = jest.spyOn(logger, 'child');
    const log = childOnFirstLine(logger, bindings);
    log.info({ documentId: 4 }, 'document created');
    log.warn({ token: 'secret-token', err: 'refused' }, 'attempt failed');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ ...bindings, level: 30, documentId: 4, msg: 'document created', service: 'magnifinance-connector' }),
      expect.objectContaining({ ...bindings, level: 40, token: '[redacted]', err: 'refused', msg: 'attempt failed' }),
    ]);
    // What else a Logger offers answers as the child would.
    expect(log.bindings()).toEqual(expect.objectContaining(bindings));
    log.child({ step: 'finalize' }).error('failed for good');
    expect(lines[2]).toEqual(expect.objectContaining({ ...bindings, step: 'finalize', level: 50, msg: 'failed for good' }));
  });
});
