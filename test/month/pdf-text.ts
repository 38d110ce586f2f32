import { inflateSync } from 'node:zlib';

/**
 * The text of each page of a PDF the month pack draws (pdfkit, its standard fonts), read from the
 * page content streams as a viewer shows it: the pages in the order of the page tree, on each page
 * the strings its `Tj`/`TJ` operators show, decoded from WinAnsi, one run per text object, in the
 * order drawn (a table row's cells left to right), joined by a space, no-break spaces as spaces.
 * test/support/pdf-reader.ts (pdf2json) does not read pdfkit's files ("Invalid XRef stream header").
 */

/** WinAnsi's 0x80-0x9f (the rest is Latin-1): € – — ‘ ’ “ ” … as Windows-1252 has them. */
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function objects(pdf: Buffer): Map<number, { dict: string; stream?: Buffer }> {
  const text = pdf.toString('latin1');
  const out = new Map<number, { dict: string; stream?: Buffer }>();
  const start = /(\d+) 0 obj\b/g;
  let match: RegExpExecArray | null;
  while ((match = start.exec(text))) {
    const end = text.indexOf('endobj', match.index);
    start.lastIndex = end;
    const body = text.slice(match.index + match[0].length, end);
    const at = body.indexOf('stream');
    if (at < 0) {
      out.set(Number(match[1]), { dict: body });
      continue;
    }
    const from = match.index + match[0].length + at + 'stream'.length + (text[match.index + match[0].length + at + 6] === '\r' ? 2 : 1);
    const to = text.indexOf('endstream', from);
    const dict = body.slice(0, at);
    const raw = pdf.subarray(from, to);
    out.set(Number(match[1]), { dict, stream: /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw });
  }
  return out;
}

function decodeHex(hex: string): string {
  return [...Buffer.from(hex.replace(/\s/g, ''), 'hex')].map((b) => (b >= 0x80 && b <= 0x9f ? WIN_ANSI_HIGH[b - 0x80] : String.fromCharCode(b))).join('');
}

/** The runs of one content stream: each BT … ET's shown strings, concatenated. */
function runs(content: string): string[] {
  const out: string[] = [];
  for (const block of content.match(/BT[\s\S]*?ET/g) ?? []) {
    const shown: string[] = [];
    for (const op of block.match(/\[[^\]]*\]\s*TJ|<[0-9a-fA-F\s]*>\s*Tj/g) ?? []) shown.push((op.match(/<[0-9a-fA-F\s]*>/g) ?? []).map((h) => decodeHex(h.slice(1, -1))).join(''));
    const run = shown.join('');
    if (run.trim() !== '') out.push(run);
  }
  return out;
}

export function pdfPageTexts(pdf: Buffer): string[] {
  const all = objects(pdf);
  const refs = (dict: string, key: string): number[] => {
    const found = new RegExp(`/${key}\\s*(\\[[^\\]]*\\]|\\d+ 0 R)`).exec(dict);
    return found ? [...found[1].matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1])) : [];
  };
  const root = [...all.values()].find((o) => /\/Type\s*\/Pages\b/.test(o.dict) && !/\/Parent\b/.test(o.dict));
  const pages = (id: number): number[] => {
    const node = all.get(id);
    if (!node) return [];
    return /\/Type\s*\/Pages\b/.test(node.dict) ? refs(node.dict, 'Kids').flatMap(pages) : [id];
  };
  const ids = root ? refs(root.dict, 'Kids').flatMap(pages) : [];
  return ids.map((id) =>
    refs(all.get(id)?.dict ?? '', 'Contents')
      .flatMap((c) => runs(all.get(c)?.stream?.toString('latin1') ?? ''))
      .join(' ')
      .replace(/[\s\u00a0]+/g, ' ')
      .trim(),
  );
}
