import { queryText } from '../../client/query-text';

describe('a call query is written as URLSearchParams writes it', () => {
  it.each([
    [{ documentId: '12345' }],
    [{ countryCode: 'PT', taxId: '509442013' }],
    [{ partnerTaxId: 'PT-509.442_013*' }],
    [{ taxId: 'ES B12345678' }],
    [{ taxId: 'a&b=c' }],
    [{ 'tax id': '1' }],
    [{ q: 'Ação ~!\'()' }],
    [{ token: '+/=' }],
    [{ empty: '' }],
    [{}],
  ])('%j', (query: Record<string, string>) => {
    expect(queryText(query)).toBe(`?${new URLSearchParams(query).toString()}`);
  });
});
