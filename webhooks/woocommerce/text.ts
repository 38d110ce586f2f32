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

/** Plain one-line text: entities decoded, tags dropped, whitespace collapsed. */
export function plainText(text: string): string {
  return decodeEntities(text.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * At most `max` characters (UTF-16 units, as the service and zod count them), cut at a word boundary
 * when one lies in the last third (so "Rua da Boavista 123" does not become "Rua da Boav"); a single
 * long word is cut hard, never inside a surrogate pair.
 */
export function clipText(text: string, max: number): string {
  const clean = text.trim();
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
