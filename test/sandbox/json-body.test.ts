import { parseJsonBody, quoteNumberLiterals } from '../../sandbox/json-body';

/** JSON number literals are kept as their exact text; strings and invalid JSON are left alone. */
describe('quoteNumberLiterals', () => {
  it.each([
    ['{"a":12.30000000000000000001}', { a: '12.30000000000000000001' }],
    ['{"a":-0.5,"b":[1,2e3,3E-2]}', { a: '-0.5', b: ['1', '2e3', '3E-2'] }],
    ['{"a":"12.5","b":"x\\"1\\"y","c":true,"d":null}', { a: '12.5', b: 'x"1"y', c: true, d: null }],
    ['  {"Lines":[{"UnitPrice":19.99}]} ', { Lines: [{ UnitPrice: '19.99' }] }],
  ])('%s', (text, expected) => {
    expect(parseJsonBody(text)).toEqual({ ok: true, value: expected });
  });

  it.each(['[1-2]', '{"a":01}', '{"a": 1.}', '{"a": tru'])('still rejects invalid JSON %s', (text) => {
    expect(parseJsonBody(text)).toEqual({ ok: false });
  });

  it('leaves text without numbers untouched', () => {
    expect(quoteNumberLiterals('{"a":"1"}')).toBe('{"a":"1"}');
  });
});
