import fc from 'fast-check';
import { clipText, decodeEntities, plainText, stripUnsafe } from '../../law/text';

describe('clipText: at most n characters, at a word boundary when one is near', () => {
  it.each([
    ['short text untouched', 'Rua Augusta 100', 75, 'Rua Augusta 100'],
    ['cut at the last space in the last third', 'Rua da Boavista numero 123 terceiro andar', 30, 'Rua da Boavista numero 123'],
    ['a single long word is cut hard', 'PAN-INOX-CONJUNTO-EDICAO-LIMITADA', 10, 'PAN-INOX-C'],
    ['no trailing separator left', 'Camisola azul, tamanho M, manga comprida', 26, 'Camisola azul, tamanho M'],
    ['never splits a surrogate pair', '🎁🎁🎁🎁', 5, '🎁🎁'],
  ])('%s', (_name, text, max, expected) => {
    const clipped = clipText(text, max);
    expect(clipped).toBe(expected);
    expect(clipped.length).toBeLessThanOrEqual(max);
  });
});

describe('WooCommerce text: entities decoded, tags dropped', () => {
  it.each([
    ['Ship Your Idea &ndash; Color: Black', 'Ship Your Idea – Color: Black'],
    ['Fruits Basket &times; 1 &amp; more', 'Fruits Basket × 1 & more'],
    ['Caf&#233; &#x2013; P&atilde;o', 'Café – P&atilde;o'],
  ])('%s', (text, expected) => {
    expect(decodeEntities(text)).toBe(expected);
  });

  it('plainText strips tags and collapses spaces', () => {
    expect(plainText('  <strong>Vinho</strong>\n  do   Porto ')).toBe('Vinho do Porto');
  });

  it('plainText decodes entities once, then strips: encoded markup never comes back as a live tag', () => {
    expect(plainText('Maria &lt;img src=x onerror=alert(1)&gt; Silva')).toBe('Maria Silva');
    expect(plainText('Rua &#60;script&#62;alert(1)&#60;/script&#62; 12')).toBe('Rua alert(1) 12');
    expect(plainText('Ana <img src=x onerror=alert(1)')).toBe('Ana');
    // Encoded twice: decoded once, it is text that reads as an entity, not a tag.
    expect(plainText('&amp;lt;b&amp;gt;Ana')).toBe('&lt;b&gt;Ana');
    expect(plainText('Caixa 2 &lt; 3 unidades &amp; co')).toBe('Caixa 2 < 3 unidades & co');
  });
});

describe('plainText: the same text as the one-pass reading it replaced', () => {
  // The reading before the copies were spared (issue 29): every replace on every name.
  const reference = (text: string): string => stripUnsafe(decodeEntities(text).replace(/<[^>]*>/g, ' ').replace(/<[a-zA-Z/!?][^<>]*$/, ' ')).replace(/\s+/g, ' ').trim();
  const piece = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u200e', '\u001b[31m', 'a', 'Ç', '&amp;', '&lt;b&gt;', '&#60;', '<', '>', '<i>', 'x;', '—');
  it('on random names of spaces, entities, tags and controls', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        expect(plainText(text)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('stripUnsafe: the same text as the four passes it skips when nothing could change', () => {
  // The reading before the screen (issue 29): every pass on every text.
  const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;
  const KEEPING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  const ONE_LINE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  const reference = (text: string, lines: 'keep-lines' | 'one-line'): string => {
    const unescaped = text.replace(ESCAPES, '');
    if (lines === 'keep-lines') return unescaped.replace(/\r\n?/g, '\n').replace(/[\u2028\u2029]/g, '\n').replace(KEEPING, '');
    return unescaped.replace(/[\u2028\u2029]/g, ' ').replace(ONE_LINE, '');
  };
  // Every character class the passes treat apart, and their neighbours.
  const piece = fc.constantFrom('a', 'Ç', 'ã', ' ', '\t', '\n', '\r', '\r\n', '\u000b', '\u000c', '\u000d', '\u000e', '\u0000', '\u0008', '\u001f', '\u0020', '\u007e', '\u007f', '\u009f', '\u00a0', '\u061c', '\u200d', '\u200e', '\u200f', '\u2027', '\u2028', '\u2029', '\u202a', '\u202e', '\u202f', '\u2065', '\u2066', '\u2069', '\u206a', '\ufeff', '\ufffd', '\ud83c', '\udf81', '🎁', '\u001b[31m', '\u001b]0;t\u0007', '\u001b]0;t\u001b\\', '\u009b1m', '[', ']', '—');
  it.each(['keep-lines', 'one-line'] as const)('%s: on random texts of controls, marks, separators and surrogates', (lines) => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const text = pieces.join('');
        expect(stripUnsafe(text, lines)).toBe(reference(text, lines));
      }),
      { numRuns: 5000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (text) => expect(stripUnsafe(text, lines)).toBe(reference(text, lines))), { numRuns: 5000 });
  });
});
