import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CtxkitError } from '@ctxkit/core';
import { corpusDir } from '@ctxkit/testkit';
import { describe, expect, it, vi } from 'vitest';
import { ToolEmbeddingError } from './tool-embedding-error.ts';
import { createToolSearch } from './tool-search.ts';

// A deterministic fake embedder: words are mapped to a concept (so "hoodie" meets "apparel" without
// sharing a word), then hashed into 32 dimensions as a bag of words.
const concepts = new Map([
  ['hoodie', 'apparel'],
  ['shirt', 'apparel'],
  ['forecast', 'weather'],
  ['rain', 'weather'],
]);
const common = new Set(['with', 'for', 'you', 'your', 'can', 'any', 'the', 'and', 'from', 'make', 'create']);
function bagOfWords(text: string): number[] | undefined {
  const vector = new Array<number>(32).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    if (word.length < 3 || common.has(word)) continue;
    const key = concepts.get(word) ?? word;
    let hash = 7;
    for (const letter of key) hash = (hash * 31 + letter.charCodeAt(0)) >>> 0;
    vector[hash % 32]! += 1;
  }
  return vector.some((value) => value > 0) ? vector : undefined;
}
const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
const asyncEmbed = (text: string) => later(bagOfWords(text));

const tools = [
  { name: 'flower_shop', description: 'Order flowers for delivery with a personal design on the card.', inputSchema: { type: 'object' } },
  { name: 'logo_maker', description: 'Make a logo design from your brand name.', inputSchema: { type: 'object' } },
  { name: 'meme_maker', description: 'Make a meme from an image and a caption.', inputSchema: { type: 'object' } },
  { name: 'garden_planner', description: 'Plan a flower garden design for your yard.', inputSchema: { type: 'object' } },
  { name: 'interior_design', description: 'Design a room with furniture you can make.', inputSchema: { type: 'object' } },
  { name: 'tattoo_ideas', description: 'Find a flower tattoo design.', inputSchema: { type: 'object' } },
  { name: 'Bohita', description: 'Create apparel with any image you can describe.', inputSchema: { type: 'object' } },
  { name: 'get_weather', description: 'Weather for a city.', inputSchema: { type: 'object' } },
];
const request = 'make me a hoodie with a flower design';

describe('createToolSearch with an asynchronous embedder', () => {
  // Under BM25F (decision 0101) the five tools sharing "flower" or "design" score closer together than
  // under summed fields, where `interior_design` counted "design" twice: Bohita, meaning only, now comes
  // sixth, above `meme_maker`, which shares a word, and `get_weather`.
  it('ranks a tool that shares no word with the request among the word matches', async () => {
    expect(
      createToolSearch(tools)
        .search(request, { limit: 8 })
        .map((tool) => tool.name),
    ).not.toContain('Bohita');
    const index = createToolSearch(tools, { semantic: { embed: asyncEmbed } });
    await index.ready;
    const found = (await index.searchAsync(request, { limit: 8 })).map((tool) => tool.name);
    expect(found.indexOf('Bohita')).toBe(5);
    expect(found.slice(6)).toEqual(['meme_maker', 'get_weather']);
  });

  it('ranks exactly as the synchronous path given the same vectors, on every MetaTool request', async () => {
    const corpus = corpusDir();
    if (!corpus) throw new Error('the shared corpus is absent');
    const meta = JSON.parse(readFileSync(join(corpus, 'tool-retrieval', 'metatool.json'), 'utf8')) as { tools: { name: string; description: string }[]; queries: { query: string }[] };
    const pool = meta.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: { type: 'object' } }));
    const sync = createToolSearch(pool, { semantic: { embed: bagOfWords, weight: 2 } });
    const viaEmbed = createToolSearch(pool, { semantic: { embed: (text) => Promise.resolve(bagOfWords(text)), weight: 2 } });
    const viaEmbedMany = createToolSearch(pool, { semantic: { embedMany: async (texts) => texts.map(bagOfWords), weight: 2, batchSize: 50 } });
    await Promise.all([viaEmbed.ready, viaEmbedMany.ready]);
    const queries = meta.queries.filter((_query, position) => position % 4 === 0).map((entry) => entry.query);
    expect(queries.length).toBeGreaterThan(400);
    let blendChangedSomething = false;
    for (const query of queries) {
      const expected = sync.rank(query, { limit: 5 });
      expect(await viaEmbed.rankAsync(query, { limit: 5 })).toEqual(expected);
      expect(await viaEmbedMany.rankAsync(query, { limit: 5 })).toEqual(expected);
      expect(viaEmbedMany.rank(query, { limit: 5, queryVector: bagOfWords(query) ?? [] })).toEqual(expected);
      blendChangedSomething ||=
        JSON.stringify(expected.map((match) => match.name)) !==
        JSON.stringify(
          createToolSearch(pool)
            .search(query)
            .map((tool) => tool.name),
        );
    }
    expect(blendChangedSomething).toBe(true);
  });

  it('embeds the tools once, in batches through embedMany, and each query once', async () => {
    const embedMany = vi.fn(async (texts: string[]) => texts.map(bagOfWords));
    const embed = vi.fn(asyncEmbed);
    const index = createToolSearch(tools, { semantic: { embed, embedMany, batchSize: 3 } });
    await index.ready;
    expect(embedMany.mock.calls.map(([texts]) => texts.length)).toEqual([3, 3, 2]);
    expect(embed).not.toHaveBeenCalled();
    await index.searchAsync(request);
    await index.searchAsync('rain tomorrow');
    expect(embed.mock.calls.map(([text]) => text)).toEqual([request, 'rain tomorrow']);
    expect(embedMany).toHaveBeenCalledTimes(3);
  });

  it('needs the async path: search throws until given a queryVector, and a queryVector waits for ready', async () => {
    const index = createToolSearch(tools, { semantic: { embed: asyncEmbed } });
    expect(() => index.search(request)).toThrow(/answers with a promise, so a search takes the asynchronous path: index\.searchAsync\(\)/);
    expect(() => index.search(request, { queryVector: bagOfWords(request)! })).toThrow(/still being embedded: await index\.ready/);
    await index.ready;
    expect(index.search(request, { queryVector: bagOfWords(request)! })).toEqual(await index.searchAsync(request));
    expect(() => createToolSearch(tools).search(request, { queryVector: [1] })).toThrow(/no semantic option/);
  });

  it('uses the word match alone for a query the embedder has no vector for (the fallback a caller chooses)', async () => {
    const failingQueries = (text: string) => (text === request ? Promise.reject(new Error('503')).catch(() => undefined) : asyncEmbed(text));
    const index = createToolSearch(tools, { semantic: { embed: failingQueries } });
    expect(await index.searchAsync(request)).toEqual(createToolSearch(tools).search(request));
  });
});

describe('createToolSearch: a failing embedder gets a typed error naming the tool or the query', () => {
  const failOn =
    (word: string, answer: (text: string) => unknown) =>
    (text: string): Promise<number[] | undefined> =>
      later(text.toLowerCase().includes(word) ? (answer(text) as number[]) : bagOfWords(text));

  it('rejects ready and every search when a tool cannot be embedded', async () => {
    const index = createToolSearch(tools, {
      semantic: {
        embed: (text) => (text.includes('Weather') ? Promise.reject(new Error('model not loaded')) : asyncEmbed(text)),
      },
    });
    await expect(index.ready).rejects.toThrow(/semantic\.embed threw on tools\[7\]: model not loaded \(tool "get_weather"\)/);
    const error = await index.searchAsync(request).catch((caught: unknown) => caught);
    expect(ToolEmbeddingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ problem: 'threw', toolIndex: 7, toolName: 'get_weather', code: 'INVALID_ARGUMENT' });
    expect((error as Error).cause).toEqual(new Error('model not loaded'));
    expect(CtxkitError.isInstance(error, 'INVALID_ARGUMENT')).toBe(true);
  });

  it('rejects a tool vector of the wrong length or with NaN in it', async () => {
    const short = createToolSearch(tools, { semantic: { embed: failOn('bohita', () => [1, 2, 3]) } });
    await expect(short.ready).rejects.toThrow(/semantic\.embed gave a vector of 3 numbers for tools\[6\] \(tool "Bohita"\); the tools' vectors have 32/);
    await expect(short.ready).rejects.toMatchObject({ problem: 'wrong-length', toolIndex: 6 });
    const notANumber = createToolSearch(tools, { semantic: { embed: failOn('meme', (text) => bagOfWords(text)!.map((value, index) => (index === 4 ? Number.NaN : value))) } });
    await expect(notANumber.ready).rejects.toThrow(/semantic\.embed gave NaN at \[4\] for tools\[2\] \(tool "meme_maker"\)/);
    const text = createToolSearch(tools, { semantic: { embed: failOn('meme', () => 'oops') } });
    await expect(text.ready).rejects.toMatchObject({ problem: 'not-a-vector', toolName: 'meme_maker' });
  });

  it('rejects a query whose embedding fails or does not fit the tools, instead of ranking by words alone', async () => {
    const index = createToolSearch(tools, {
      semantic: { embed: (text) => (text === 'boom' ? Promise.reject(new Error('quota')) : text === 'short' ? later([1, 0]) : asyncEmbed(text)) },
    });
    await index.ready;
    await expect(index.searchAsync('boom')).rejects.toThrow(/semantic\.embed threw on the query "boom": quota/);
    await expect(index.searchAsync('boom')).rejects.toMatchObject({ problem: 'threw', query: 'boom', toolIndex: undefined });
    await expect(index.searchAsync('short')).rejects.toThrow(/semantic\.embed gave a vector of 2 numbers for the query "short"; the tools' vectors have 32/);
    expect(() => index.search('short', { queryVector: [1, Number.POSITIVE_INFINITY] })).toThrow(/queryVector gave a vector of 2 numbers/);
    expect(() => index.search('x', { queryVector: new Array(32).fill(Number.POSITIVE_INFINITY) })).toThrow(/queryVector gave Infinity at \[0\] for the query "x"/);
  });

  it('rejects an embedMany answer with too few vectors, naming the batch', async () => {
    const index = createToolSearch(tools, { semantic: { embedMany: async (texts) => texts.slice(1).map(bagOfWords), batchSize: 4 } });
    await expect(index.ready).rejects.toThrow(/semantic\.embedMany returned 3 vectors for 4 texts \(tools\[0\]–tools\[3\]\)/);
    await expect(index.ready).rejects.toMatchObject({ problem: 'wrong-count', toolIndex: 0, toolName: undefined });
    expect(() => createToolSearch(tools, { semantic: { embedMany: async (texts) => texts.map(bagOfWords), batchSize: 0 } })).toThrow(/batchSize must be a whole number of 1 or more, got 0/);
  });

  it('checks a synchronous embedMany too, and throws at once', () => {
    expect(() => createToolSearch(tools, { semantic: { embedMany: (texts) => texts.map((text) => (text.startsWith('bohita') ? [Number.NaN] : bagOfWords(text))) } })).toThrow(
      /semantic\.embedMany gave a vector of 1 numbers for tools\[6\] \(tool "Bohita"\); the tools' vectors have 32/,
    );
    const index = createToolSearch(tools, { semantic: { embedMany: (texts) => texts.map(bagOfWords) } });
    expect(index.search(request, { limit: 6 }).map((tool) => tool.name)).toContain('Bohita');
  });
});
