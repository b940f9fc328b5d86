import { CtxkitError } from '@ctxkit/core';
import { unitVector } from './semantic-blend.ts';
import { ToolEmbeddingError, type ToolEmbeddingProblem } from './tool-embedding-error.ts';

/** A vector for a text, or undefined when the embedder has none (the text has no known word). */
export type Embedding = ArrayLike<number> | undefined;

/** The embedder and blend of `createToolSearch`'s `semantic` option; give `embed`, `embedMany` or both. */
export interface ToolSearchSemantic {
  /**
   * A vector for one text, returned at once (static word vectors) or as a promise (an embedding
   * API or model). Every vector the same length; undefined when the text has no vector. Used for each
   * query, and for the tools when `embedMany` is not given.
   */
  embed?: (text: string) => Embedding | PromiseLike<Embedding>;
  /**
   * Vectors for many texts in one call, in their order (the OpenAI embeddings API, Ollama `/api/embed`
   * and transformers.js pipelines take an array). Used for the tools, `batchSize` texts a call, and for
   * the query when `embed` is not given.
   */
  embedMany?: (texts: string[]) => readonly Embedding[] | PromiseLike<readonly Embedding[]>;
  /** Texts per `embedMany` call, or `embed` calls in flight at once, while indexing the tools. @default 32 */
  batchSize?: number;
  /** Weight of the cosine similarity against the word-match score (both scaled to 0–1 per search). @default 1 */
  weight?: number;
}

/** A named tool's text to embed, at its position in the list given to `createToolSearch`. */
export interface ToolEmbeddingInput {
  position: number;
  name: string;
  text: string;
}

/** The tools' vectors and the query side of a search with a meaning signal. */
export interface SemanticIndex {
  /** True when the embedder answered the tools with a promise: searches then go through the async path. */
  readonly asynchronous: boolean;
  /** Settles when every tool has its vector; rejects with the {@link ToolEmbeddingError} that stopped it. */
  readonly ready: Promise<void>;
  /** Vectors by tool position. @throws CtxkitError while the tools are still being embedded, or the error that stopped it */
  toolVectors(): readonly (Float64Array | undefined)[];
  /** The query's vector, embedded now. @throws CtxkitError INVALID_ARGUMENT when the embedder is asynchronous */
  queryVector(query: string): Float64Array | undefined;
  /** The query's vector, after the tools are embedded. */
  queryVectorAsync(query: string): Promise<Float64Array | undefined>;
  /** A vector the caller computed for the query, checked like the embedder's. */
  givenVector(vector: unknown, query: string): Float64Array | undefined;
}

type Target = { tool: ToolEmbeddingInput; last?: ToolEmbeddingInput } | { query: string };

const ignore = () => {};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function place(target: Target): { where: string; named: string } {
  if ('query' in target) return { where: `the query ${JSON.stringify(target.query.length > 80 ? `${target.query.slice(0, 77)}...` : target.query)}`, named: '' };
  const { tool, last } = target;
  if (last !== undefined && last !== tool) return { where: `tools[${tool.position}]–tools[${last.position}]`, named: '' };
  return { where: `tools[${tool.position}]`, named: ` (tool ${JSON.stringify(tool.name)})` };
}

function embeddingError(problem: ToolEmbeddingProblem, message: string, target: Target, cause?: unknown): ToolEmbeddingError {
  const about = 'query' in target ? { query: target.query } : { toolIndex: target.tool.position, toolName: target.last && target.last !== target.tool ? undefined : target.tool.name };
  return new ToolEmbeddingError({ problem, message, ...about, cause });
}

function threw(method: string, target: Target, error: unknown): ToolEmbeddingError {
  const { where, named } = place(target);
  return embeddingError('threw', `semantic.${method} threw on ${where}: ${(error as Error)?.message ?? String(error)}${named}`, target, error);
}

function usage(message: string): never {
  throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'schema', message });
}

const asyncUsage =
  'semantic.embed answers with a promise, so a search takes the asynchronous path: index.searchAsync() / rankAsync() ' +
  '(deferTools: handleAsync() / toolsForAsync()), or pass { queryVector } once the tools are embedded (await index.ready)';

/** The vector of a new-API embedding, checked: an array of finite numbers of the tools' length; undefined (or all zeros) means none. */
function strictVector(raw: unknown, dimensions: number | undefined, label: string, target: Target): Float64Array | undefined {
  if (raw === undefined || raw === null) return undefined;
  const { where, named } = place(target);
  const length = (raw as { length?: unknown }).length;
  if (typeof raw !== 'object' || typeof length !== 'number' || length === 0) {
    throw embeddingError('not-a-vector', `${label} gave ${Array.isArray(raw) ? 'an empty array' : typeof raw} for ${where}${named}, not an array of numbers or undefined`, target);
  }
  if (dimensions !== undefined && length !== dimensions) {
    throw embeddingError('wrong-length', `${label} gave a vector of ${length} numbers for ${where}${named}; the tools' vectors have ${dimensions}`, target);
  }
  const vector = raw as ArrayLike<unknown>;
  for (let index = 0; index < length; index++) {
    const value = vector[index];
    if (typeof value !== 'number') throw embeddingError('not-a-vector', `${label} gave a ${typeof value} at [${index}] for ${where}${named}`, target);
    if (!Number.isFinite(value)) throw embeddingError('not-finite', `${label} gave ${value} at [${index}] for ${where}${named}`, target);
  }
  return unitVector(vector as ArrayLike<number>);
}

/** Starts embedding one batch of tools: their raw answers, or a promise of them. */
function embedBatch(semantic: ToolSearchSemantic, batch: readonly ToolEmbeddingInput[]): unknown[] | Promise<unknown[]> {
  const target: Target = { tool: batch[0]!, last: batch.at(-1)! };
  if (semantic.embedMany) {
    const checkCount = (answer: unknown): unknown[] => {
      if (Array.isArray(answer) && answer.length === batch.length) return answer;
      const got = Array.isArray(answer) ? `${answer.length} vectors` : typeof answer;
      throw embeddingError('wrong-count', `semantic.embedMany returned ${got} for ${batch.length} texts (${place(target).where})`, target);
    };
    let answer: unknown;
    try {
      answer = semantic.embedMany(batch.map((entry) => entry.text));
    } catch (error) {
      throw threw('embedMany', target, error);
    }
    if (!isThenable(answer)) return checkCount(answer);
    return Promise.resolve(answer).then(checkCount, (error: unknown) => {
      throw ToolEmbeddingError.isInstance(error) ? error : threw('embedMany', target, error);
    });
  }
  const answers: unknown[] = [];
  for (const entry of batch) {
    try {
      answers.push(semantic.embed!(entry.text));
    } catch (error) {
      for (const answer of answers) if (isThenable(answer)) Promise.resolve(answer).catch(ignore);
      throw threw('embed', { tool: entry }, error);
    }
  }
  if (!answers.some(isThenable)) return answers;
  return Promise.all(
    answers.map((answer, position) =>
      Promise.resolve(answer).catch((error: unknown) => {
        throw threw('embed', { tool: batch[position]! }, error);
      }),
    ),
  );
}

/** Embeds the tools batch by batch: synchronously while the embedder answers at once, else a promise. */
function embedTools(semantic: ToolSearchSemantic, batches: readonly (readonly ToolEmbeddingInput[])[]): unknown[][] | Promise<unknown[][]> {
  const done: unknown[][] = [];
  for (let batch = 0; batch < batches.length; batch++) {
    const answers = embedBatch(semantic, batches[batch]!);
    if (!isThenable(answers)) {
      done.push(answers);
      continue;
    }
    // Batches run one after another: an embedding API's rate limit sees one request at a time.
    return (async () => {
      done.push(await answers);
      for (let next = batch + 1; next < batches.length; next++) done.push(await embedBatch(semantic, batches[next]!));
      return done;
    })();
  }
  return done;
}

/** What the rest of a search needs from the tools' vectors. */
interface ToolVectors {
  vectors: (Float64Array | undefined)[];
  dimensions: number | undefined;
}

/**
 * Turns answers into unit vectors. `strict` (the asynchronous path, `embedMany`) rejects anything
 * that is not a vector of the tools' length with finite numbers; otherwise (a synchronous `embed`, as
 * before) such a vector is left out, as it always was.
 */
function toVectors(inputs: readonly ToolEmbeddingInput[], answers: readonly unknown[], strict: boolean, method: string): ToolVectors {
  const vectors: (Float64Array | undefined)[] = [];
  let dimensions: number | undefined;
  inputs.forEach((input, position) => {
    const answer = answers[position];
    const vector = strict ? strictVector(answer, dimensions, `semantic.${method}`, { tool: input }) : unitVector(answer as Embedding, dimensions);
    if (strict && answer !== undefined && answer !== null) dimensions ??= (answer as ArrayLike<number>).length;
    else dimensions ??= vector?.length;
    vectors[input.position] = vector;
  });
  return { vectors, dimensions };
}

/** The vector of one query from the embedder (`embedMany` with one text when there is no `embed`), or a promise of it. */
function embedQuery(semantic: ToolSearchSemantic, query: string): unknown {
  const target: Target = { query };
  const method = semantic.embed ? 'embed' : 'embedMany';
  let answer: unknown;
  try {
    answer = semantic.embed ? semantic.embed(query) : semantic.embedMany!([query]);
  } catch (error) {
    throw threw(method, target, error);
  }
  const single = (value: unknown) => {
    if (semantic.embed) return value;
    if (Array.isArray(value) && value.length === 1) return value[0];
    throw embeddingError('wrong-count', `semantic.embedMany returned ${Array.isArray(value) ? `${value.length} vectors` : typeof value} for 1 text (${place(target).where})`, target);
  };
  if (!isThenable(answer)) return single(answer);
  return Promise.resolve(answer).then(single, (error: unknown) => {
    throw ToolEmbeddingError.isInstance(error) ? error : threw(method, target, error);
  });
}

/**
 * Embeds the tools (at once, or in the background when the embedder answers with a promise) and
 * answers the query side of each search.
 * @throws ToolEmbeddingError when a synchronous embedder fails on a tool
 */
export function createSemanticIndex(semantic: ToolSearchSemantic, inputs: readonly ToolEmbeddingInput[]): SemanticIndex {
  const batchSize = semantic.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) usage(`createToolSearch semantic.batchSize must be a whole number of 1 or more, got ${String(semantic.batchSize)}`);
  const method = semantic.embedMany ? 'embedMany' : 'embed';
  const batches: ToolEmbeddingInput[][] = [];
  for (let start = 0; start < inputs.length; start += batchSize) batches.push(inputs.slice(start, start + batchSize));
  const answers = embedTools(semantic, batches);
  const asynchronous = isThenable(answers);
  // The old synchronous `embed` keeps its leniency (a bad vector is left out); every new path is checked.
  const strict = asynchronous || semantic.embedMany !== undefined;
  let state: ToolVectors | undefined;
  let failure: unknown;
  let ready: Promise<void>;
  if (asynchronous) {
    ready = answers
      .then((done) => {
        state = toVectors(inputs, done.flat(), strict, method);
      })
      .catch((error: unknown) => {
        failure = error;
        throw error;
      });
    // A caller that never awaits `ready` hears of a failure from its searches, not as an unhandled rejection.
    ready.catch(ignore);
  } else {
    state = toVectors(inputs, answers.flat(), strict, method);
    ready = Promise.resolve();
  }
  const vectorsNow = (): ToolVectors => {
    if (failure !== undefined) throw failure;
    if (state === undefined) usage('the tools are still being embedded: await index.ready before a search with a queryVector');
    return state;
  };
  const finish = (answer: unknown, query: string): Float64Array | undefined => {
    const { dimensions } = vectorsNow();
    return strict ? strictVector(answer, dimensions, semantic.embed ? 'semantic.embed' : 'semantic.embedMany', { query }) : unitVector(answer as Embedding, dimensions);
  };
  return {
    asynchronous,
    ready,
    toolVectors: () => vectorsNow().vectors,
    queryVector(query) {
      if (asynchronous) usage(asyncUsage);
      const answer = embedQuery(semantic, query);
      if (isThenable(answer)) {
        Promise.resolve(answer).catch(ignore);
        usage(asyncUsage);
      }
      return finish(answer, query);
    },
    async queryVectorAsync(query) {
      await ready;
      return finish(await embedQuery(semantic, query), query);
    },
    givenVector(vector, query) {
      if (vector === undefined || vector === null) usage(`queryVector must be an array of numbers, got ${String(vector)}`);
      return strictVector(vector, vectorsNow().dimensions, 'queryVector', { query });
    },
  };
}
