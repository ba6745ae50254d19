/**
 * @module http/dashboard/favicon
 * /favicon.ico, so no page's console shows a 404: a 16 × 16 icon (the brand blue disc with a white
 * centre), built once as ICO bytes — one 32-bit BMP image, rows bottom-up, its AND mask all zero
 * because the alpha channel already says what is transparent.
 */
const SIZE = 16;
const BLUE = [0xd0, 0x57, 0x0b]; // #0b57d0 as B, G, R

function pixel(x: number, y: number): [number, number, number, number] {
  const d = Math.hypot(x + 0.5 - SIZE / 2, y + 0.5 - SIZE / 2);
  if (d > 7.5) return [0, 0, 0, 0];
  if (d < 2.5) return [0xff, 0xff, 0xff, 0xff];
  return [BLUE[0] as number, BLUE[1] as number, BLUE[2] as number, 0xff];
}

function buildIco(): Uint8Array<ArrayBuffer> {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // one bit per pixel, rows padded to 32 bits
  const image = 40 + pixels + mask;
  const out = new Uint8Array(6 + 16 + image);
  const v = new DataView(out.buffer);
  v.setUint16(2, 1, true); // type: icon
  v.setUint16(4, 1, true); // one image
  out[6] = SIZE;
  out[7] = SIZE;
  v.setUint16(10, 1, true); // planes
  v.setUint16(12, 32, true); // bits per pixel
  v.setUint32(14, image, true);
  v.setUint32(18, 22, true); // offset of the image
  v.setUint32(22, 40, true); // BITMAPINFOHEADER size
  v.setInt32(26, SIZE, true);
  v.setInt32(30, SIZE * 2, true); // height counts the XOR and AND bitmaps
  v.setUint16(34, 1, true);
  v.setUint16(36, 32, true);
  v.setUint32(42, pixels + mask, true);
  let at = 62;
  for (let row = SIZE - 1; row >= 0; row--) {
    for (let x = 0; x < SIZE; x++) {
      out.set(pixel(x, row), at);
      at += 4;
    }
  }
  return out;
}

export const FAVICON_ICO: ArrayBuffer = buildIco().buffer;
