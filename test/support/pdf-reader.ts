import { inflateSync } from 'node:zlib';
import jsQR from 'jsqr';
import PDFParser from 'pdf2json';

/**
 * Reads a PDF back the way a person's viewer would see it: the text of each page (pdf2json, a
 * pure-JS PDF parser) and every QR code drawn in it, rebuilt from the black rectangles filled in
 * the page content streams and decoded with jsQR. Nothing here knows how the sandbox drew a page.
 */

export interface ReadPdf {
  /** Text of each page, whitespace collapsed. */
  pages: string[];
  /** Decoded QR codes, in the order of the content streams that draw them. */
  qrCodes: string[];
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface ParsedPage {
  Texts: { R: { T: string }[] }[];
}

function parse(pdf: Buffer): Promise<ParsedPage[]> {
  return new Promise((resolve, reject) => {
    const parser = new PDFParser(null, true);
    parser.on('pdfParser_dataError', (error: unknown) => reject(error instanceof Error ? error : new Error(JSON.stringify(error))));
    parser.on('pdfParser_dataReady', (data: unknown) => resolve((data as { Pages: ParsedPage[] }).Pages));
    // Errors only (0 would be read as "unset" and mean warnings, which it prints for every file).
    parser.parseBuffer(pdf, -1);
  });
}

function decodeText(t: string): string {
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

/** The Flate-compressed streams of the file, inflated (content streams among them). */
function inflatedStreams(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const out: string[] = [];
  const marker = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = marker.exec(text))) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    try {
      out.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a Flate stream (a font program, an image): nothing drawn with operators
    }
  }
  return out;
}

/** Rectangles filled in black (`0 0 0 scn` / `0 0 0 rg`, then `x y w h re` … `f`). */
function blackRects(content: string): Rect[] {
  const tokens = content.split(/\s+/);
  const operands: string[] = [];
  let fillIsBlack = false;
  let pending: Rect[] = [];
  const found: Rect[] = [];
  for (const token of tokens) {
    if (/^[-+.\d]/.test(token)) {
      operands.push(token);
      continue;
    }
    if (token === 'scn' || token === 'rg' || token === 'sc') fillIsBlack = operands.length === 3 && operands.every((o) => Number(o) === 0);
    if (token === 'g') fillIsBlack = Number(operands[0]) === 0;
    if (token === 're') {
      const [x, y, w, h] = operands.slice(-4).map(Number);
      pending.push({ x, y, w, h });
    }
    if (token === 'f' || token === 'f*') {
      if (fillIsBlack) found.push(...pending);
      pending = [];
    }
    if (token === 'n' || token === 'S') pending = [];
    operands.length = 0;
  }
  return found;
}

/** Rasterizes the squares of one QR code and decodes it; null when they are no QR code. */
export function decodeQrFromRects(rects: readonly Rect[]): string | null {
  if (rects.length < 20) return null;
  const module = Math.min(...rects.map((r) => Math.abs(r.h)));
  const minX = Math.min(...rects.map((r) => r.x));
  const minY = Math.min(...rects.map((r) => r.y));
  const size = Math.round((Math.max(...rects.map((r) => r.x + r.w)) - minX) / module);
  const scale = 6;
  const quiet = 4;
  const side = (size + 2 * quiet) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const r of rects) {
    const col0 = Math.round((r.x - minX) / module);
    const cols = Math.round(r.w / module);
    const row = Math.round((r.y - minY) / module);
    for (let py = (row + quiet) * scale; py < (row + quiet + 1) * scale; py++) {
      for (let px = (col0 + quiet) * scale; px < (col0 + cols + quiet) * scale; px++) {
        const i = (py * side + px) * 4;
        pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
      }
    }
  }
  return jsQR(pixels, side, side)?.data ?? null;
}

export async function readPdf(pdf: Buffer): Promise<ReadPdf> {
  const pages = await parse(pdf);
  const qrCodes = inflatedStreams(pdf)
    .map((content) => decodeQrFromRects(blackRects(content)))
    .filter((qr): qr is string => qr !== null);
  return {
    pages: pages.map((page) =>
      page.Texts.map((t) => t.R.map((r) => decodeText(r.T)).join(''))
        .join(' ')
        .replace(/\s+/g, ' '),
    ),
    qrCodes,
  };
}
