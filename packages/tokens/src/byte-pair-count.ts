/**
 * Byte-pair counting on tiktoken rank data. Counts only: it never builds the token list, which is
 * what lets a cached piece cost one map lookup.
 */

/** Ranks keyed by the token's bytes as a binary string (one char per byte, 0 to 255). */
export type RankMap = Map<string, number>;

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const base64Values = new Uint8Array(128);
for (let index = 0; index < base64Alphabet.length; index++) base64Values[base64Alphabet.charCodeAt(index)] = index;

function base64ToBinary(encoded: string): string {
  let binary = '';
  let buffer = 0;
  let bits = 0;
  for (let index = 0; index < encoded.length; index++) {
    const code = encoded.charCodeAt(index);
    if (code === 61) break; // '=' padding
    buffer = ((buffer << 6) | (base64Values[code] ?? 0)) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      binary += String.fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return binary;
}

/**
 * Parses js-tiktoken's compressed `bpe_ranks` text (lines of `<tag> <first rank> <base64 token>...`)
 * into a rank map. Binary-string keys are about half the memory of js-tiktoken's `"1,2,3"` keys and
 * need no join on lookup.
 */
export function parseRanks(bpeRanks: string): RankMap {
  const ranks: RankMap = new Map();
  for (const line of bpeRanks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const offset = Number.parseInt(fields[1] ?? '', 10);
    for (let index = 2; index < fields.length; index++) ranks.set(base64ToBinary(fields[index]!), offset + index - 2);
  }
  return ranks;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of a string as a binary string; ASCII text is its own binary string. */
export function utf8Binary(text: string): string {
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) > 0x7f) {
      // TextEncoder turns lone surrogates into U+FFFD, exactly as js-tiktoken's encoder does.
      const bytes = encoder.encode(text);
      let binary = '';
      for (let byteIndex = 0; byteIndex < bytes.length; byteIndex++) binary += String.fromCharCode(bytes[byteIndex]!);
      return binary;
    }
  }
  return text;
}

// Past this many bytes the quadratic scan loses to a heap; real pieces are almost always shorter.
const heapThreshold = 96;

/**
 * How many tokens byte-pair encoding makes of one pre-tokenized piece (a binary string), merging the
 * lowest-ranked adjacent pair first and the leftmost on ties, as tiktoken does.
 */
export function bytePairCount(piece: string, ranks: RankMap): number {
  const length = piece.length;
  if (length <= 1 || ranks.has(piece)) return length === 0 ? 0 : 1;
  return length > heapThreshold ? heapMergeCount(piece, ranks) : scanMergeCount(piece, ranks);
}

function scanMergeCount(piece: string, ranks: RankMap): number {
  // starts[k] is where part k begins; the last entry (piece.length) closes the last part.
  const starts: number[] = [];
  for (let index = 0; index <= piece.length; index++) starts.push(index);
  // pairRanks[k] is the rank of part k merged with part k + 1 (Infinity when that is no token).
  const rankOfPair = (part: number): number => ranks.get(piece.slice(starts[part]!, starts[part + 2]!)) ?? Number.POSITIVE_INFINITY;
  const pairRanks: number[] = [];
  for (let part = 0; part + 1 < piece.length; part++) pairRanks.push(rankOfPair(part));
  for (;;) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let index = 0; index < pairRanks.length; index++) {
      if (pairRanks[index]! < lowest) {
        lowest = pairRanks[index]!;
        at = index;
      }
    }
    if (at < 0) break;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    if (at < pairRanks.length) pairRanks[at] = rankOfPair(at);
    if (at > 0) pairRanks[at - 1] = rankOfPair(at - 1);
  }
  return starts.length - 1;
}

/** A binary min-heap of (rank, start, version) triples in parallel arrays. */
class PairHeap {
  private ranks: number[] = [];
  private starts: number[] = [];
  private versions: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  private before(left: number, right: number): boolean {
    const leftRank = this.ranks[left]!;
    const rightRank = this.ranks[right]!;
    return leftRank < rightRank || (leftRank === rightRank && this.starts[left]! < this.starts[right]!);
  }

  private swap(left: number, right: number): void {
    const rank = this.ranks[left]!;
    const start = this.starts[left]!;
    const version = this.versions[left]!;
    this.ranks[left] = this.ranks[right]!;
    this.starts[left] = this.starts[right]!;
    this.versions[left] = this.versions[right]!;
    this.ranks[right] = rank;
    this.starts[right] = start;
    this.versions[right] = version;
  }

  push(rank: number, start: number, version: number): void {
    this.ranks.push(rank);
    this.starts.push(start);
    this.versions.push(version);
    let index = this.ranks.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) break;
      this.swap(index, parent);
      index = parent;
    }
  }

  /** Removes the top entry into `out` as [rank, start, version]. */
  pop(out: [number, number, number]): void {
    out[0] = this.ranks[0]!;
    out[1] = this.starts[0]!;
    out[2] = this.versions[0]!;
    const last = this.ranks.length - 1;
    this.swap(0, last);
    this.ranks.pop();
    this.starts.pop();
    this.versions.pop();
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < last && this.before(left, smallest)) smallest = left;
      if (right < last && this.before(right, smallest)) smallest = right;
      if (smallest === index) break;
      this.swap(index, smallest);
      index = smallest;
    }
  }
}

function heapMergeCount(piece: string, ranks: RankMap): number {
  const length = piece.length;
  // Parts are identified by their start byte; next[start] is the start of the following part.
  const next = new Int32Array(length + 1);
  const previous = new Int32Array(length + 1);
  const versions = new Int32Array(length + 1);
  for (let index = 0; index <= length; index++) {
    next[index] = index + 1;
    previous[index] = index - 1;
  }
  const heap = new PairHeap();
  const pushPair = (start: number): void => {
    const second = next[start]!;
    if (second >= length) return;
    const rank = ranks.get(piece.slice(start, next[second]!));
    if (rank !== undefined) heap.push(rank, start, versions[start]!);
  };
  for (let index = 0; index + 1 < length; index++) pushPair(index);
  let parts = length;
  const top: [number, number, number] = [0, 0, 0];
  while (heap.size > 0) {
    heap.pop(top);
    const start = top[1];
    // A stale entry: the part at `start` was merged away or its pair changed since it was pushed.
    if (top[2] !== versions[start]) continue;
    const second = next[start]!;
    const after = next[second]!;
    next[start] = after;
    if (after <= length) previous[after] = start;
    versions[second] = versions[second]! + 1;
    versions[start] = versions[start]! + 1;
    parts -= 1;
    pushPair(start);
    const before = previous[start]!;
    if (before >= 0) {
      versions[before] = versions[before]! + 1;
      pushPair(before);
    }
  }
  return parts;
}
