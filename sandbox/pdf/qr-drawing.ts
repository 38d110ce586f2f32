import QRCode from 'qrcode';

/**
 * Draws a QR code as vector squares (crisp at any zoom, no image decoding). Error correction M,
 * as the tax authority's specification asks; dark runs of a row are merged into one rectangle.
 */
export interface VectorCanvas {
  rect(x: number, y: number, w: number, h: number): unknown;
  fill(color: string): unknown;
}

export function qrModules(message: string): { size: number; dark(row: number, col: number): boolean } {
  const { modules } = QRCode.create(message, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => Boolean(modules.get(row, col)) };
}

/**
 * Fills the dark modules of `message` in black, `side` points square from (x, y). Each run is
 * its own filled rectangle, so a PDF reader (and the tests) can read the modules back.
 */
export function drawQr(canvas: VectorCanvas, message: string, x: number, y: number, side: number): void {
  const { size, dark } = qrModules(message);
  const module = side / size;
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && dark(row, col)) col++;
      canvas.rect(x + start * module, y + row * module, (col - start) * module, module);
      canvas.fill('black');
    }
  }
}
