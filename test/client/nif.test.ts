import { CONSUMER_NIF, isValidPortugueseNif, portugueseNifCheckDigit } from '../../client';

describe('Portuguese NIF: check digit and leading digits', () => {
  it.each([
    ['123456789', 'individual'],
    ['509442013', 'company (sandbox demo account)'],
    ['999999990', 'final consumer'],
    ['450000001', 'non-resident 45'],
    ['700000003', 'special entity 70'],
    ['980000009', 'non-resident 98'],
    ['260000000', 'check digit 0 from 11 - 0'],
    ['PT509442013', 'with the PT prefix'],
    [' 123 456 789 ', 'with spaces'],
  ])('%s is valid (%s)', (nif) => {
    expect(isValidPortugueseNif(nif)).toBe(true);
  });

  it.each([
    ['123456780', 'wrong check digit'],
    ['800000005', 'obsolete prefix 8 with a right check digit'],
    ['730000001', 'prefix 73 is not assigned'],
    ['400000000', 'prefix 4 alone is not assigned'],
    ['12345678', 'eight digits'],
    ['1234567890', 'ten digits'],
    ['12345678A', 'a letter'],
    ['', 'empty'],
    ['000000000', 'prefix 0'],
  ])('%s is invalid (%s)', (nif) => {
    expect(isValidPortugueseNif(nif)).toBe(false);
  });

  it('the consumer NIF is the named constant and passes the check', () => {
    expect(CONSUMER_NIF).toBe('999999990');
    expect(isValidPortugueseNif(CONSUMER_NIF)).toBe(true);
  });

  it.each([
    ['12345678', 9],
    ['50944201', 3],
    ['26000000', 0],
  ])('check digit of %s is %d', (firstEight, digit) => {
    expect(portugueseNifCheckDigit(firstEight)).toBe(digit);
  });
});
