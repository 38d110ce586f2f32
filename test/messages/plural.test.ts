import { countOf } from '../../messages/plural';
import { sweepSummary } from '../../connector/words';

describe('plurals by the language\'s rules (Intl.PluralRules), not by hand', () => {
  it.each([
    ['pt', 0, '0 encomendas'],
    ['pt', 1, '1 encomenda'],
    ['pt', 2, '2 encomendas'],
    ['en', 0, '0 orders'],
    ['en', 1, '1 order'],
  ] as const)('%s %i -> %s', (lang, count, expected) => {
    const words = lang === 'pt' ? { one: 'encomenda', other: 'encomendas' } : { one: 'order', other: 'orders' };
    expect(countOf(lang, count, words)).toBe(expected);
  });

  it('the sweep\'s summary counts with them', () => {
    expect(sweepSummary('pt', { scanned: 1, enqueued: 0, resumed: 2, waitingForPerson: 1 })).toBe(
      '1 encomenda vista; 0 documentos postos na fila para emissão; 2 retomados depois de terem parado; 1 encomenda precisa da sua atenção.',
    );
  });
});
