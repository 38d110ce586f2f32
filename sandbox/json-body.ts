/**
 * JSON bodies keep their number literals as text: `"UnitPrice": 12.3456789012345678` becomes the
 * string "12.3456789012345678" before JSON.parse, so amounts never pass through a float. One pass
 * over the text, skipping string contents.
 */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Returns the text unchanged when a token is not a JSON number, so JSON.parse still rejects it. */
export function quoteNumberLiterals(json: string): string {
  let out = '';
  let start = 0;
  let i = 0;
  const n = json.length;
  while (i < n) {
    const ch = json.charCodeAt(i);
    if (ch === 34 /* " */) {
      i += 1;
      while (i < n && json.charCodeAt(i) !== 34) i += json.charCodeAt(i) === 92 /* \ */ ? 2 : 1;
      i += 1;
    } else if (ch === 45 /* - */ || (ch >= 48 && ch <= 57)) {
      let end = i + 1;
      while (end < n && isNumberCharacter(json.charCodeAt(end))) end += 1;
      const literal = json.slice(i, end);
      if (!JSON_NUMBER.test(literal)) return json;
      out += `${json.slice(start, i)}"${literal}"`;
      start = end;
      i = end;
    } else {
      i += 1;
    }
  }
  return out + json.slice(start);
}

/** [0-9eE.+-] by character code: a regex and a one-character string per character were most of this pass. */
function isNumberCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 101 /* e */ || code === 69 /* E */ || code === 46 /* . */ || code === 43 /* + */ || code === 45; /* - */
}

export type JsonBody = { ok: true; value: unknown } | { ok: false };

export function parseJsonBody(text: string): JsonBody {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(quoteNumberLiterals(text)) };
  } catch {
    return { ok: false };
  }
}
