// CRC-32 of A‖B from crc(A), crc(B) and |B| alone (zlib's crc32_combine, GF(2) matrix method): lets
// gzip members be joined from deflated fragments whose bytes are gone (docs/design.md §6).

const POLY = 0xedb88320;

function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function square(out: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(mat, mat[n]!);
}

export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = POLY;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row >>> 0;
  square(even, odd); // two zero bits
  square(odd, even); // four zero bits
  let c = crc1 >>> 0;
  let len = len2;
  // apply len2 zero bytes to crc1, one power of two of the operator at a time
  do {
    square(even, odd);
    if (len % 2) c = times(even, c);
    len = Math.floor(len / 2);
    if (len === 0) break;
    square(odd, even);
    if (len % 2) c = times(odd, c);
    len = Math.floor(len / 2);
  } while (len !== 0);
  return (c ^ crc2) >>> 0;
}
