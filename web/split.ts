// Cuts a FeatureCollection, as the origin sends it (`{"type":"FeatureCollection","features":[…],"meta":…}`),
// into pieces while it downloads: JSON arrays of whole features that several workers parse side by side, the
// first ones while the rest is still arriving. A cut is made only before `{"type":"Feature"` that follows `},`:
// inside a JSON string every quote is escaped, so that text only occurs between two features. An answer laid
// out otherwise is kept whole, for one worker to parse.
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const OPEN = ascii('"features":[');
const BETWEEN = ascii('},{"type":"Feature"');
const CLOSE = ascii('}],"meta":');
const CLOSE_LAST = ascii("}]}");
/** Where `"features":[` must appear by. */
const HEAD_BYTES = 4096;

const matches = (bytes: Uint8Array, pattern: Uint8Array, at: number): boolean => {
  for (let j = 0; j < pattern.length; j++) if (bytes[at + j] !== pattern[j]) return false;
  return true;
};

function indexOf(bytes: Uint8Array, pattern: Uint8Array, from: number, to: number): number {
  for (
    let i = bytes.indexOf(pattern[0]!, from);
    i !== -1 && i + pattern.length <= to;
    i = bytes.indexOf(pattern[0]!, i + 1)
  )
    if (matches(bytes, pattern, i)) return i;
  return -1;
}

function lastIndexOf(bytes: Uint8Array, pattern: Uint8Array, min: number): number {
  for (let i = bytes.lastIndexOf(pattern[0]!); i >= min; i = i === 0 ? -1 : bytes.lastIndexOf(pattern[0]!, i - 1))
    if (i + pattern.length <= bytes.length && matches(bytes, pattern, i)) return i;
  return -1;
}

function concat(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** `[` + bytes + `]`, in a buffer of its own (it is transferred to a worker). */
function bracketed(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 2);
  out[0] = 0x5b;
  out.set(bytes, 1);
  out[out.length - 1] = 0x5d;
  return out;
}

export class FeatureCutter {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private mode: "head" | "features" | "whole" = "head";
  private next: number;

  /** Pieces start at `firstPiece` bytes and double up to `maxPiece`, so that workers start early. */
  constructor(
    firstPiece = 256 << 10,
    private readonly maxPiece = 8 << 20,
  ) {
    this.next = firstPiece;
  }

  /** Takes the next chunk of the answer; the pieces now complete. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.mode === "whole" || this.heldBytes < Math.max(this.next, HEAD_BYTES)) return [];
    const buf = this.take();
    const from = this.start(buf);
    if (from === undefined) return [];
    const at = lastIndexOf(buf, BETWEEN, from);
    if (at === -1) return this.hold(buf.subarray(from)); // one feature longer than a piece: wait for its end
    this.hold(buf.subarray(at + 2));
    this.next = Math.min(this.maxPiece, this.next * 2);
    return [bracketed(buf.subarray(from, at + 1))];
  }

  /**
   * After the last chunk: the remaining pieces, or `whole` when the answer is not laid out as the origin sends
   * it. Throws when the features started but never ended (a cut answer).
   */
  end(): { pieces: Uint8Array[] } | { whole: Uint8Array } {
    const buf = this.take();
    const from = this.mode === "whole" ? undefined : this.start(buf, true);
    if (from === undefined) return { whole: buf };
    if (buf[from] === 0x5d) return { pieces: [] }; // "features":[]
    let close = lastIndexOf(buf, CLOSE, from);
    if (close === -1) {
      let last = buf.length;
      while (last > 0 && /\s/.test(String.fromCharCode(buf[last - 1]!))) last--;
      close = last - CLOSE_LAST.length >= from && matches(buf, CLOSE_LAST, last - CLOSE_LAST.length) ? last - 3 : -1;
    }
    if (close === -1) throw new Error("the answer ended inside its features (cut off?)");
    return { pieces: [bracketed(buf.subarray(from, close + 1))] };
  }

  private take(): Uint8Array {
    const buf = concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    return buf;
  }

  private hold(rest: Uint8Array): [] {
    this.held = rest.length ? [rest] : [];
    this.heldBytes = rest.length;
    return [];
  }

  /** Where features start in `buf`: after `"features":[` at the head, else 0; undefined when kept whole. */
  private start(buf: Uint8Array, ended = false): number | undefined {
    if (this.mode === "features") return 0;
    const open = indexOf(buf, OPEN, 0, Math.min(buf.length, HEAD_BYTES));
    const first = open + OPEN.length;
    if (open === -1 || (buf[first] !== 0x7b && !(ended && buf[first] === 0x5d))) {
      this.mode = "whole";
      this.hold(buf);
      return undefined;
    }
    this.mode = "features";
    return first;
  }
}
