/**
 * Text as WooCommerce stores it (HTML entities in names: "Ship Your Idea &ndash; Color: Black")
 * clipped to the service's S(n) limits.
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  times: '×',
  hellip: '…',
  euro: '€',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * What no certified document, order note or alert should carry, whatever a customer typed:
 * - terminal escape sequences (CSI `ESC [ … m`, OSC `ESC ] … BEL`), which recolour or retitle a
 *   terminal (the doctor prints order data);
 * - C0 and C1 control characters and DEL (NUL included), except, where lines are kept, line feed
 *   and tab;
 * - lone UTF-16 surrogates (half a character: invalid in XML, SAF-T and most databases);
 * - bidirectional overrides, embeddings, isolates and marks (U+202A–U+202E, U+2066–U+2069,
 *   U+200E, U+200F, U+061C), which make a text read differently from what it says ("Trojan
 *   Source"), and the byte-order mark;
 * - line and paragraph separators (U+2028, U+2029), which become a space (or a line feed).
 */
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u009b[0-?]*[ -/]*[@-~]/g;
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSAFE_ON_ONE_LINE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Every character either reading below could remove or change (each escape sequence starts with
 * one of its controls; any surrogate, paired or not, sends the text the long way): a text without
 * any, nearly every name and note, is its own answer, without the four passes (issue 29).
 */
const MAY_CHANGE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff\u2028\u2029\ud800-\udfff]/;
const MAY_CHANGE_ON_ONE_LINE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff\u2028\u2029\ud800-\udfff]/;

export function stripUnsafe(text: string, lines: 'keep-lines' | 'one-line' = 'one-line'): string {
  if (!(lines === 'keep-lines' ? MAY_CHANGE_KEEPING_LINES : MAY_CHANGE_ON_ONE_LINE).test(text)) return text;
  const unescaped = text.replace(ESCAPE_SEQUENCES, '');
  if (lines === 'keep-lines') return unescaped.replace(/\r\n?/g, '\n').replace(/[\u2028\u2029]/g, '\n').replace(UNSAFE_KEEPING_LINES, '');
  // On one line, tabs, line feeds and the other C0 "spaces" (\t \n \v \f \r) become spaces (the caller collapses them).
  return unescaped.replace(/[\u2028\u2029]/g, ' ').replace(UNSAFE_ON_ONE_LINE, '');
}

/**
 * Plain one-line text: entities decoded once, then tags dropped (an encoded `&lt;img onerror&gt;` is
 * markup after decoding and goes with the rest; a tag left open at the end too), what no document
 * should carry removed, whitespace collapsed. Decoding after stripping would bring the tag back live.
 */
export function plainText(text: string): string {
  const decoded = text.includes('&') ? decodeEntities(text) : text;
  const untagged = decoded.includes('<') ? decoded.replace(/<[^>]*>/g, ' ').replace(/<[a-zA-Z/!?][^<>]*$/, ' ') : decoded;
  // Runs of white space as one space: only the runs that differ from one space are replaced (a name
  // with single spaces, nearly every name, is kept as it is instead of copied).
  return stripUnsafe(untagged).replace(WHITE_SPACE_TO_COLLAPSE, ' ').trim();
}

/** Two white-space characters or more, or one that is not a space: what /\s+/ → ' ' would change. */
const WHITE_SPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

/**
 * At most `max` characters (UTF-16 units, as the service and zod count them), cut at a word boundary
 * when one lies in the last third (so "Rua da Boavista 123" does not become "Rua da Boav"); a single
 * long word is cut hard, never inside a surrogate pair.
 */
export function clipText(text: string, max: number): string {
  const clean = stripUnsafe(text).replace(/[\t\n\v\f\r]+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let end = max;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const hard = clean.slice(0, end);
  const boundary = hard.lastIndexOf(' ');
  const cut = boundary >= Math.floor((max * 2) / 3) ? hard.slice(0, boundary) : hard;
  return cut.replace(/[\s,;:–-]+$/, '');
}

/** Joins the non-empty parts with `separator`. */
export function joinParts(parts: readonly string[], separator: string): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join(separator);
}
