// Issue 12 experiment: a sentence-embedding model whose weights ship inside an npm tarball, blended
// into createToolSearch through its `semantic` hook, measured on MetaTool with the repo's split
// (packages/schema/bench/retrieval-eval.ts: single-tool requests by alternate tool, multi-tool by
// position; constants chosen on `tune`, reported on `test`).
//
//   npx tsx --conditions=@ctxkit/source experiments/embed/retrieval-embed.ts [tune|test|all] [weights]
//
// `weights` is a comma-separated list of blend weights (default 0.5,1,2,4); `0` is BM25 alone,
// `only` ranks by the embedding alone and `rrf` fuses the two rankings by reciprocal rank (k = 60,
// the usual constant, not tuned here) instead of the hook's score blend. Vectors are cached in $TMPDIR/ctxkit-embed-cache, outside the repo.
// TOOL_TEXT=description|parameters changes what is embedded for a tool; MIX=β adds word vectors.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolSearch, measureRetrieval, searchTerms, splitWords, toolSearchText, type RetrievalQuery, type ToolMatch, type ToolSearch } from '../../packages/schema/src/index.ts';
import { embedTexts, modelLabel } from './use-model.ts';
import { winkEmbedder } from './wink-vectors.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** A JSON file of the repo's corpus folder. */
const corpusFile = (...parts: string[]): unknown => JSON.parse(readFileSync(join(here, '..', '..', 'corpus', ...parts), 'utf8'));
const meta = corpusFile('tool-retrieval', 'metatool.json') as { tools: { name: string; description: string }[]; queries: RetrievalQuery[]; multiToolQueries: RetrievalQuery[] };
const schemaFiles = readdirSync(join(here, '..', '..', 'corpus', 'schemas')).filter((file) => file.endsWith('.json'));
const distractors = schemaFiles.sort().flatMap((file) => corpusFile('schemas', file) as unknown[]);

const half = (process.argv[2] ?? 'all') as 'tune' | 'test' | 'all';
const weights = (process.argv[3] ?? '0.5,1,2,4').split(',');
const toolPosition = new Map(meta.tools.map((tool, position) => [tool.name, position]));
const inHalf = (even: boolean) => half === 'all' || even === (half === 'tune');
const single = meta.queries.filter((query) => inHalf(toolPosition.get(query.tools[0]!)! % 2 === 0));
const multi = meta.multiToolQueries.filter((_query, position) => inHalf(position % 2 === 0));
const tools = meta.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { type: 'object' } }));
const toolTerms = new Map(meta.tools.map((tool) => [tool.name, new Set(searchTerms(`${tool.name} ${tool.description}`))]));
/** Single-tool requests that share not one stemmed word with their tool's name and description. */
const noSharedWord = single.filter((entry) => !searchTerms(entry.query).some((term) => toolTerms.get(entry.tools[0]!)!.has(term)));
const pools = [
  ['metatool (199 tools)', tools],
  [`metatool + schema corpus (${tools.length + distractors.length} tools)`, [...tools, ...distractors]],
] as const;

/** The texts createToolSearch hands to `embed` for a pool's tools, collected with a stand-in vector. */
function toolTexts(pool: readonly unknown[]): string[] {
  const texts: string[] = [];
  const record = (text: string) => {
    texts.push(text);
    return [1];
  };
  createToolSearch(pool, { semantic: { embed: record } });
  return texts;
}

/** Vectors for every text, from the cache file where present, the model for the rest. */
async function vectorsFor(texts: readonly string[]): Promise<Map<string, Float32Array>> {
  const cacheFile = join(tmpdir(), 'ctxkit-embed-cache', `${modelLabel}.json`);
  const cached = existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, number[]>) : {};
  const missing = [...new Set(texts)].filter((text) => !(text in cached));
  if (missing.length > 0) {
    const started = performance.now();
    const vectors = await embedTexts(missing);
    const elapsed = performance.now() - started;
    console.error(`embedded ${missing.length} texts in ${(elapsed / 1000).toFixed(1)} s (${(elapsed / missing.length).toFixed(1)} ms each, batched)`);
    missing.forEach((text, index) => {
      cached[text] = Array.from(vectors[index]!);
    });
    mkdirSync(dirname(cacheFile), { recursive: true });
    writeFileSync(cacheFile, JSON.stringify(cached));
  }
  return new Map(Object.entries(cached).map(([text, vector]) => [text, Float32Array.from(vector)]));
}

/** A ToolSearch-shaped ranking by cosine similarity alone (what the embedding gets without BM25). */
function embeddingOnly(pool: readonly unknown[], vectors: Map<string, Float32Array>): ToolSearch<unknown> {
  const texts = toolTexts(pool);
  const names = texts.map((_text, position) => (pool[position] as { name: string }).name);
  const unit = (vector: Float32Array) => {
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  };
  const toolVectors = texts.map((text) => unit(vectors.get(text)!));
  const rank = (query: string, options: { limit?: number } = {}): ToolMatch<unknown>[] => {
    const queryVector = unit(vectors.get(query)!);
    const scored = toolVectors.map((vector, index) => ({ index, score: vector.reduce((sum, value, at) => sum + value * queryVector[at]!, 0) }));
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return scored.slice(0, options.limit ?? 5).map(({ index, score }) => ({ tool: pool[index], name: names[index]!, index, score }));
  };
  return { rank, search: (query, options) => rank(query, options).map((match) => match.tool), get: () => undefined, size: pool.length };
}

/** Reciprocal-rank fusion of BM25 (createToolSearch without `semantic`) and the embedding ranking. */
function reciprocalRank(pool: readonly unknown[], vectors: Map<string, Float32Array>): ToolSearch<unknown> {
  const lexical = createToolSearch(pool);
  const meaning = embeddingOnly(pool, vectors);
  const rank = (query: string, options: { limit?: number } = {}): ToolMatch<unknown>[] => {
    const fused = new Map<number, ToolMatch<unknown>>();
    for (const ranking of [lexical.rank(query, { limit: pool.length }), meaning.rank(query, { limit: pool.length })]) {
      ranking.forEach((match, position) => {
        const entry = fused.get(match.index) ?? { ...match, score: 0 };
        entry.score += 1 / (60 + position + 1);
        fused.set(match.index, entry);
      });
    }
    return [...fused.values()].sort((a, b) => b.score - a.score || a.index - b.index).slice(0, options.limit ?? 5);
  };
  return { rank, search: (query, options) => rank(query, options).map((match) => match.tool), get: () => undefined, size: pool.length };
}

/** The index a weight argument names. */
function indexFor(weight: string, pool: readonly unknown[], vectors: Map<string, Float32Array>): ToolSearch<unknown> {
  if (weight === 'only') return embeddingOnly(pool, vectors);
  if (weight === 'rrf') return reciprocalRank(pool, vectors);
  return createToolSearch(pool as unknown[], weight === '0' ? {} : { semantic: { weight: Number(weight), embed: (text) => vectors.get(text) } });
}

/**
 * The text embedded for a tool: `hook` what createToolSearch hands `embed` (name words, title,
 * description); `description` the description alone; `parameters` the hook's text and the
 * parameter names and descriptions. Chosen with TOOL_TEXT=...; the vector stands in for the hook's.
 */
function variantText(tool: unknown, variant: string): string {
  const text = toolSearchText(tool)!;
  if (variant === 'description') return text.description || splitWords(text.name).join(' ');
  const hook = `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`;
  return variant === 'parameters' ? `${hook}\n${text.parameters}` : hook;
}

const queries = [...single, ...multi].map((entry) => entry.query);
const hookTexts = toolTexts(pools[1][1]);
const variantTexts = pools[1][1].map((tool) => variantText(tool, process.env.TOOL_TEXT ?? 'hook'));
if (hookTexts.length !== variantTexts.length) throw new Error('a tool of the pool was not embedded');
const vectors = await vectorsFor([...hookTexts, ...variantTexts, ...queries]);
hookTexts.forEach((text, position) => {
  vectors.set(text, vectors.get(variantTexts[position]!)!);
});

/** Both vectors scaled to length 1, the second then by `mix`, one after the other (a missing one as zeros). */
function concatenated(first: Float32Array, second: Float64Array | undefined, mix: number): Float32Array {
  const out = new Float32Array(first.length + (second?.length ?? 100));
  const firstNorm = Math.hypot(...first) || 1;
  first.forEach((value, index) => {
    out[index] = value / firstNorm;
  });
  const secondNorm = second ? Math.hypot(...second) || 1 : 1;
  second?.forEach((value, index) => {
    out[first.length + index] = (mix * value) / secondNorm;
  });
  return out;
}

// MIX=β adds static word vectors (wink-vectors.ts) beside the sentence vector: cosine of the pair is
// (cos_sentence + β² cos_words) / (1 + β²).
const mix = Number(process.env.MIX ?? 0);
if (mix > 0) {
  const wink = winkEmbedder();
  for (const [text, vector] of vectors) vectors.set(text, concatenated(vector, wink(text), mix));
}
const pct = (value: number) => (value * 100).toFixed(1);
for (const weight of weights) {
  for (const [label, pool] of pools) {
    const index = indexFor(weight, pool, vectors);
    for (const [kind, set] of [
      ['single', single],
      ['multi', multi],
      ['single, no shared word', noSharedWord],
    ] as const) {
      const score = measureRetrieval(index, set);
      console.log(`${half}\tweight ${weight}\t${label}\t${kind} (${score.queries})\ttop-1 ${pct(score.top1)}\ttop-5 ${pct(score.topK)}\tall-in-top-5 ${pct(score.allInTopK)}`);
    }
  }
}
