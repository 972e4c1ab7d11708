// The Huffman code of HPACK (RFC 7541 section 5.2, Appendix B), decoding only: the provider never
// Huffman-encodes what it sends. The code is canonical, so the code lengths below define it entirely: codes
// of one length are consecutive, in symbol order, and each length continues where the shorter one ended.

/** Code length in bits of each symbol: bytes 0-255, then 256, EOS (the padding is a prefix of it). */
const LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, 6, 10, 10, 12, 13, 6, 8, 11,
  10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7,
  8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23,
  22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23,
  23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26,
  27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27,
  27, 27, 26, 30,
];
const EOS = 256;
const MAX_LENGTH = 30;

// Canonical decoding tables: for each length, the first code, how many codes, and where its symbols start
// in SYMBOLS (all symbols sorted by length, then value).
const SYMBOLS = LENGTHS.map((_, s) => s).sort((a, b) => LENGTHS[a]! - LENGTHS[b]! || a - b);
const FIRST = new Array<number>(MAX_LENGTH + 1).fill(0);
const COUNT = new Array<number>(MAX_LENGTH + 1).fill(0);
const OFFSET = new Array<number>(MAX_LENGTH + 1).fill(0);
{
  for (const len of LENGTHS) COUNT[len]!++;
  let code = 0;
  let offset = 0;
  for (let len = 1; len <= MAX_LENGTH; len++) {
    FIRST[len] = code;
    OFFSET[len] = offset;
    code = (code + COUNT[len]!) * 2;
    offset += COUNT[len]!;
  }
}

export class HuffmanError extends Error {
  override name = "HuffmanError";
}

/** Decodes a Huffman-coded string literal into its bytes. */
export function huffmanDecode(input: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(Math.ceil((input.length * 8) / 5));
  let n = 0;
  let code = 0;
  let len = 0;
  for (let i = 0; i < input.length; i++) {
    const byte = input[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      code = code * 2 + ((byte >> bit) & 1);
      len++;
      const index = code - FIRST[len]!;
      if (index < COUNT[len]!) {
        const symbol = SYMBOLS[OFFSET[len]! + index]!;
        if (symbol === EOS) throw new HuffmanError("EOS symbol in a Huffman-coded string");
        out[n++] = symbol;
        code = 0;
        len = 0;
      } else if (len >= MAX_LENGTH) throw new HuffmanError("invalid Huffman code");
    }
  }
  // What remains must be padding: fewer than 8 bits, all ones (the start of EOS).
  if (len > 7 || code !== 2 ** len - 1) throw new HuffmanError("invalid Huffman padding");
  return out.subarray(0, n);
}
