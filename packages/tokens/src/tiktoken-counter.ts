import { CtxkitError, type TokenizerPlugin } from '@ctxkit/core';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { bytePairCount, parseRanks, type RankMap, utf8Binary } from './byte-pair-count.ts';
import { CountCache } from './count-cache.ts';

/** The tiktoken encodings ctxkit counts exactly: `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series) and `cl100k_base` (GPT-4, GPT-3.5). */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

/** Options for {@link tiktokenCounter}. */
export interface TiktokenCounterOptions {
  /** Distinct pieces whose counts are kept, per generation (the cache holds at most twice this). @default 100_000 */
  pieceCacheSize?: number;
}

/** A tokenizer plugin that counts exactly as tiktoken does, with the ranks loaded on first `load()`. */
export interface TiktokenCounter<Encoding extends TiktokenEncoding = TiktokenEncoding> extends TokenizerPlugin<`tiktoken-${Encoding}`> {
  readonly encoding: Encoding;
  /** True once `load()` has finished; `count` throws before that. */
  readonly loaded: boolean;
  /**
   * Exact token count of plain text, identical to js-tiktoken's `encode(text, [], []).length`:
   * special-token literals such as `<|endoftext|>` are counted as the ordinary text they are. One
   * exception: a pre-token piece over 8,192 characters (a run with no break, such as 40 MB of one letter)
   * is counted 8,192 characters at a time, which bounds memory and may differ by a token a chunk.
   * @throws CtxkitError TOKENIZER_FAILED before `load()` has finished; INVALID_ARGUMENT for a non-string
   */
  count(text: string): number;
  /** Loads the ranks (about 0.2 s and 60 MB for o200k_base), once per process and encoding. @throws CtxkitError TOKENIZER_FAILED */
  load(): Promise<void>;
}

interface LoadedEncoding {
  readonly ranks: RankMap;
  /** The pre-tokenization pattern, sticky: `test` gives each piece's end without building a match array. */
  readonly sticky: RegExp;
  /** The same pattern, global, for text the sticky pass cannot walk (a character no alternative matches). */
  readonly global: RegExp;
}

// Literal specifiers, so bundlers split the multi-megabyte rank files into chunks of their own.
const rankFiles: Record<TiktokenEncoding, () => Promise<{ default: TiktokenBPE }>> = {
  o200k_base: () => import('js-tiktoken/ranks/o200k_base'),
  cl100k_base: () => import('js-tiktoken/ranks/cl100k_base'),
};

// Shared by every counter of an encoding in the process: the rank map is the expensive part.
const loading = new Map<TiktokenEncoding, Promise<LoadedEncoding>>();
const loaded = new Map<TiktokenEncoding, LoadedEncoding>();

function loadEncoding(encoding: TiktokenEncoding): Promise<LoadedEncoding> {
  let pending = loading.get(encoding);
  if (!pending) {
    pending = rankFiles[encoding]().then(
      (module) => {
        const data = module.default;
        const result: LoadedEncoding = { ranks: parseRanks(data.bpe_ranks), sticky: new RegExp(data.pat_str, 'yu'), global: new RegExp(data.pat_str, 'gu') };
        loaded.set(encoding, result);
        return result;
      },
      (cause: unknown) => {
        loading.delete(encoding);
        throw new CtxkitError({
          code: 'TOKENIZER_FAILED',
          source: 'tokens',
          message: `tiktoken-${encoding}: could not load the ranks from js-tiktoken/ranks/${encoding}: ${(cause as Error)?.message ?? String(cause)}`,
          cause,
        });
      },
    );
    loading.set(encoding, pending);
  }
  return pending;
}

// Longer pieces (a run of dashes, a long identifier) rarely repeat; caching them only costs memory.
const longestCachedPiece = 256;

/**
 * A pre-token piece longer than this many characters (a run with no break in it: 40 MB of one letter, a DNA
 * sequence) is counted this many characters at a time. Byte-pair merging one piece needs memory in
 * proportion to it (about 65 bytes a byte: a 40 MB piece peaked at 2.9 GB); in chunks it stays small. The
 * count may differ from tiktoken's by a token where a chunk boundary splits what one merge would join, at
 * most one a chunk: none for the repeated runs measured (decision 0091). The simulated provider encodes in
 * chunks of the same size.
 */
export const longestExactPiece = 8_192;

/** A piece cut into chunks of at most `size` characters, never between the two halves of a surrogate pair. */
export function pieceChunks(piece: string, size = longestExactPiece): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < piece.length; ) {
    let end = Math.min(piece.length, start + size);
    const last = piece.charCodeAt(end - 1);
    if (end < piece.length && end - start > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(piece.slice(start, end));
    start = end;
  }
  return chunks;
}

/**
 * Splits text into pre-tokenization pieces and sums `countPiece` over them, as js-tiktoken's
 * `matchAll` does. `sticky` and `global` are the same pattern with the `y` and `g` flags.
 */
export function sumPieces(text: string, sticky: RegExp, global: RegExp, countPiece: (piece: string) => number): number {
  let total = 0;
  let start = 0;
  sticky.lastIndex = 0;
  // The tiktoken patterns match every character, so pieces are contiguous and the sticky walk reaches
  // the end without building match arrays; the global pass takes over where a character matched no
  // alternative (skipping it, as matchAll does).
  while (start < text.length && sticky.test(text) && sticky.lastIndex > start) {
    const end = sticky.lastIndex;
    total += countPiece(text.slice(start, end));
    start = end;
  }
  if (start < text.length) {
    global.lastIndex = start;
    for (let match = global.exec(text); match !== null; match = global.exec(text)) total += countPiece(match[0]);
  }
  return total;
}

/**
 * An exact tiktoken counter with a piece-level count cache: text is split with the encoding's own
 * pre-tokenization pattern, each distinct piece is byte-pair counted once, and later occurrences cost
 * one map lookup. Counts are identical to js-tiktoken (but for a piece over 8,192 characters, counted in
 * chunks: see `count`); the ranks come from js-tiktoken's rank files and
 * load lazily, so a process that only estimates never pays for them.
 * @throws CtxkitError INVALID_ARGUMENT for an encoding other than o200k_base or cl100k_base
 * @example
 * ```ts
 * const counter = tiktokenCounter('o200k_base');
 * await counter.load();
 * counter.count('hello world');      // 2
 * counter.count('<|endoftext|>');    // 7: user text, never the special token, never a throw
 * ```
 */
export function tiktokenCounter<Encoding extends TiktokenEncoding>(encoding: Encoding, options: TiktokenCounterOptions = {}): TiktokenCounter<Encoding> {
  if (!Object.hasOwn(rankFiles, encoding)) {
    throw new CtxkitError({
      code: 'INVALID_ARGUMENT',
      source: 'tokens',
      message: `tiktokenCounter: unknown encoding ${JSON.stringify(encoding)}; expected o200k_base or cl100k_base`,
    });
  }
  const cacheSize = options.pieceCacheSize ?? 100_000;
  if (!Number.isInteger(cacheSize) || cacheSize < 0) {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `tiktokenCounter: pieceCacheSize must be a whole number ≥ 0, got ${cacheSize}` });
  }
  const id = `tiktoken-${encoding}` as const;
  const cache = new CountCache(cacheSize);
  const pieceCount = (piece: string, ranks: RankMap): number => {
    let tokens = cache.get(piece);
    if (tokens === undefined) {
      tokens = piece.length > longestExactPiece ? pieceChunks(piece).reduce((sum, chunk) => sum + bytePairCount(utf8Binary(chunk), ranks), 0) : bytePairCount(utf8Binary(piece), ranks);
      if (piece.length <= longestCachedPiece && cacheSize > 0) cache.offer(piece, tokens);
    }
    return tokens;
  };
  return {
    specificationVersion: 'v1',
    kind: 'tokenizer',
    id,
    encoding,
    get loaded() {
      return loaded.has(encoding);
    },
    async load() {
      await loadEncoding(encoding);
    },
    count(text) {
      if (typeof text !== 'string') {
        throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'tokens', message: `${id}: count() takes a string, got ${text === null ? 'null' : typeof text}` });
      }
      const ready = loaded.get(encoding);
      if (!ready) {
        throw new CtxkitError({
          code: 'TOKENIZER_FAILED',
          source: 'tokens',
          message: `${id}: count() before the ranks were loaded; await counter.load() (or meter.ready()) once first`,
        });
      }
      const { ranks, sticky, global } = ready;
      return sumPieces(text, sticky, global, (piece) => pieceCount(piece, ranks));
    },
  };
}
