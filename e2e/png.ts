import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel of the decoded rows (8-bit colour types only). */
  channels: number;
  /** Unfiltered pixel rows, `width * channels` bytes each. */
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** Decodes an 8-bit, non-interlaced PNG fully (chunks, zlib, row filters); throws on anything malformed. */
export function decodePng(data: Buffer): DecodedPng {
  if (!data.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: the signature is wrong');
  let offset = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | undefined;
  const idat: Buffer[] = [];
  for (;;) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (body.length !== length) throw new Error(`PNG chunk ${type} is cut short`);
    if (type === 'IHDR') {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        colour: body[9]!,
        interlace: body[12]!,
      };
    } else if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  if (!header) throw new Error('PNG without IHDR');
  const channels = CHANNELS[header.colour];
  if (header.depth !== 8 || !channels || header.interlace !== 0) {
    throw new Error(
      `unsupported PNG: depth ${header.depth}, colour type ${header.colour}, interlace ${header.interlace}`,
    );
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = header.width * channels;
  if (raw.length !== header.height * (stride + 1)) throw new Error('PNG image data has the wrong size');
  const pixels = Buffer.alloc(header.height * stride);
  for (let y = 0; y < header.height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return { width: header.width, height: header.height, channels, pixels };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
