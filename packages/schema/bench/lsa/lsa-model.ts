// Decision 0106 (experiment): latent semantic analysis learned from the tool pool's own text, no outside data.
// A term × tool matrix (the index's terms: split words, stop words out, Porter stems; each field's counts
// weighted as the BM25F fields are, then log(1 + tf) × IDF, each tool scaled to length 1), a truncated SVD by
// randomized subspace iteration on AᵀA (Halko, Martinsson and Tropp, SIAM Review 2011) in tool space, and an
// embedder: a text's vector is Uᵀ × its weighted term vector (a tool's text folds in to its own row of VΣ),
// optionally rescaled by Σ^(p − 1). `createToolSearch`'s `semantic` hook blends its cosine with the word match.
import { defaultStopWords, searchTerms, splitWords } from '../../src/search-terms.ts';
import { toolSearchText } from '../../src/tool-search.ts';

export interface LsaOptions {
  /** Latent dimensions kept. @default 128 */
  k?: number;
  /** Field weights on term counts: name and title, description, parameters. @default [3, 1, 0.05] */
  fields?: [number, number, number];
  /** Σ power of the vectors: 1 = Uᵀx (a tool ~ its row of VΣ), 0 = Σ⁻¹Uᵀx (a tool ~ its row of V). @default 1 */
  sigmaPower?: number;
  /** Power iterations of the randomized SVD. @default 2 */
  iterations?: number;
  /** Extra columns of the randomized SVD beyond k. @default 16 */
  oversample?: number;
  /** Tools' vectors: folded in from the hook's text (name, title, description), or their full column (with parameters). @default 'full' */
  toolVectors?: 'fold' | 'full';
  /** Blend weight passed to `semantic.weight`. @default 1 */
  weight?: number;
  /** Drop terms found in fewer than this many tools from the matrix. @default 2 */
  minTools?: number;
  /** Subtract the mean of the tools' vectors from every vector (against hubs in the latent space). @default false */
  center?: boolean;
}

export interface LsaModel {
  k: number;
  terms: number;
  /** The embedder for `createToolSearch`'s `semantic.embed`. */
  embed(text: string): Float64Array | undefined;
  /** Singular values, largest first. */
  sigma: Float64Array;
  /** The nearest terms of a term (a stem) in the latent space (cosine of rows of UΣ), best first. */
  neighbours(term: string, count: number): [string, number][];
}

const termOptions = { stopWords: new Set(defaultStopWords), stem: true };

// A small seeded generator (mulberry32), so a pool always gets the same model.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Columns of an n × l column-major matrix made orthonormal in place (modified Gram–Schmidt, `passes` times). */
function orthonormalise(matrix: Float64Array, n: number, l: number, passes = 1): void {
  for (let pass = 0; pass < passes; pass++) {
    for (let j = 0; j < l; j++) {
      const at = j * n;
      for (let i = 0; i < j; i++) {
        const other = i * n;
        let dot = 0;
        for (let r = 0; r < n; r++) dot += matrix[other + r]! * matrix[at + r]!;
        for (let r = 0; r < n; r++) matrix[at + r] = matrix[at + r]! - dot * matrix[other + r]!;
      }
      let norm = 0;
      for (let r = 0; r < n; r++) norm += matrix[at + r]! * matrix[at + r]!;
      const scale = 1 / (Math.sqrt(norm) || 1);
      for (let r = 0; r < n; r++) matrix[at + r] = matrix[at + r]! * scale;
    }
  }
}

/** The transpose of a rows × columns row-major matrix. */
function transpose(matrix: Float64Array, rows: number, columns: number): Float64Array {
  const out = new Float64Array(matrix.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < columns; c++) out[c * rows + r] = matrix[r * columns + c]!;
  return out;
}

/** Eigenvalues and eigenvectors (columns) of a symmetric l × l matrix, by cyclic Jacobi rotations. */
function symmetricEigen(input: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diagonal = 0;
    for (let p = 0; p < l; p++) {
      diagonal += a[p * l + p]! ** 2;
      for (let q = p + 1; q < l; q++) off += a[p * l + q]! ** 2;
    }
    if (off <= 1e-22 * diagonal) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * l + q]! - a[p * l + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < l; r++) {
          const arp = a[r * l + p]!;
          const arq = a[r * l + q]!;
          a[r * l + p] = c * arp - s * arq;
          a[r * l + q] = s * arp + c * arq;
        }
        for (let r = 0; r < l; r++) {
          const apr = a[p * l + r]!;
          const aqr = a[q * l + r]!;
          a[p * l + r] = c * apr - s * aqr;
          a[q * l + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < l; r++) {
          const vrp = v[r * l + p]!;
          const vrq = v[r * l + q]!;
          v[r * l + p] = c * vrp - s * vrq;
          v[r * l + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = a[i * l + i]!;
  return { values, vectors: v };
}

interface Entry {
  term: number;
  weight: number;
}

/**
 * The k largest singular values of the m × n term × tool matrix given by its sparse columns, and U (m × k, row-major
 * by term), by randomized subspace iteration on AᵀA in tool space, then a Rayleigh–Ritz step.
 */
function randomizedSvd(columns: readonly Entry[][], m: number, n: number, k: number, options: LsaOptions): { sigma: Float64Array; u: Float64Array } {
  const l = Math.min(k + (options.oversample ?? 16), n, m);
  // Gram product W = AᵀA X for an n × l column-major X (answered column-major), through the sparse columns.
  const gram = (columnMajor: Float64Array): Float64Array => {
    const x = transpose(columnMajor, l, n);
    const ax = new Float64Array(m * l);
    columns.forEach((entries, document) => {
      for (const { term, weight } of entries) for (let j = 0; j < l; j++) ax[term * l + j]! += weight * x[document * l + j]!;
    });
    const out = new Float64Array(n * l);
    columns.forEach((entries, document) => {
      for (const { term, weight } of entries) for (let j = 0; j < l; j++) out[document * l + j]! += weight * ax[term * l + j]!;
    });
    return transpose(out, n, l);
  };
  const next = random(0x1a5);
  let y: Float64Array = new Float64Array(n * l);
  for (let index = 0; index < y.length; index++) y[index] = next() - 0.5;
  orthonormalise(y, n, l);
  const iterations = options.iterations ?? 2;
  for (let round = 0; round < iterations; round++) {
    y = gram(y);
    orthonormalise(y, n, l, round === iterations - 1 ? 2 : 1);
  }
  const w = gram(y);
  const small = new Float64Array(l * l);
  for (let i = 0; i < l; i++) {
    for (let j = i; j < l; j++) {
      let dot = 0;
      for (let r = 0; r < n; r++) dot += y[i * n + r]! * w[j * n + r]!;
      small[i * l + j] = small[j * l + i] = dot;
    }
  }
  const { values, vectors } = symmetricEigen(small, l);
  const order = [...values.keys()].sort((a, b) => values[b]! - values[a]!).slice(0, k);
  const sigma = Float64Array.from(order, (index) => Math.sqrt(Math.max(values[index]!, 0)));
  // V = Y S (n × k); U = A V Σ⁻¹ (m × k), row-major by term.
  const v = new Float64Array(n * k);
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < l; j++) {
      const factor = vectors[j * l + order[c]!]!;
      if (factor === 0) continue;
      for (let r = 0; r < n; r++) v[r * k + c]! += y[j * n + r]! * factor;
    }
  }
  const u = new Float64Array(m * k);
  columns.forEach((entries, document) => {
    for (const { term, weight } of entries) for (let c = 0; c < k; c++) u[term * k + c]! += (weight * v[document * k + c]!) / (sigma[c]! || 1);
  });
  return { sigma, u };
}

/** The LSA model of a pool of tool definitions (the shapes `createToolSearch` takes). */
export function createLsaModel(pool: readonly unknown[], options: LsaOptions = {}): LsaModel {
  const fields = options.fields ?? [3, 1, 0.05];
  const minTools = options.minTools ?? 2;
  const counted = pool.map((tool) => {
    const text = toolSearchText(tool);
    const counts = new Map<string, number>();
    if (text === undefined) return counts;
    const parts = [`${splitWords(text.name).join(' ')} ${text.title}`, text.description, text.parameters];
    parts.forEach((part, field) => {
      if (fields[field] === 0) return;
      for (const term of searchTerms(part, termOptions)) counts.set(term, (counts.get(term) ?? 0) + fields[field]!);
    });
    return counts;
  });
  const documentFrequency = new Map<string, number>();
  for (const counts of counted) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const termIds = new Map<string, number>();
  const idf: number[] = [];
  const vocabulary: string[] = [];
  for (const [term, frequency] of documentFrequency) {
    if (frequency < minTools) continue;
    termIds.set(term, idf.length);
    vocabulary.push(term);
    idf.push(Math.log(pool.length / frequency));
  }
  const m = idf.length;
  const n = pool.length;
  const weigh = (counts: ReadonlyMap<string, number>): Entry[] => {
    const entries: Entry[] = [];
    let norm = 0;
    for (const [term, count] of counts) {
      const id = termIds.get(term);
      if (id === undefined || idf[id]! <= 0) continue;
      const weight = Math.log(1 + count) * idf[id]!;
      entries.push({ term: id, weight });
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const entry of entries) entry.weight /= norm;
    return entries;
  };
  const columns = counted.map(weigh);

  const k = Math.min(options.k ?? 128, n - 1, m - 1);
  const { sigma, u } = randomizedSvd(columns, m, n, k, options);
  const power = options.sigmaPower ?? 1;
  const scale = Float64Array.from(sigma, (value) => (value > 0 ? value ** (power - 1) : 0));
  const mean = new Float64Array(k);
  const project = (entries: readonly Entry[]): Float64Array | undefined => {
    if (entries.length === 0) return undefined;
    const out = new Float64Array(k);
    for (const { term, weight } of entries) for (let c = 0; c < k; c++) out[c]! += weight * u[term * k + c]!;
    for (let c = 0; c < k; c++) out[c] = out[c]! * scale[c]! - mean[c]!;
    return out;
  };
  if (options.center) {
    const sum = new Float64Array(k);
    for (const entries of columns) {
      const vector = project(entries);
      if (vector) for (let c = 0; c < k; c++) sum[c]! += vector[c]!;
    }
    for (let c = 0; c < k; c++) mean[c] = sum[c]! / n;
  }
  // The hook embeds each tool's name, title and description; 'full' answers that text with the tool's whole column.
  const full = new Map<string, Float64Array | undefined>();
  if ((options.toolVectors ?? 'full') === 'full') {
    pool.forEach((tool, document) => {
      const text = toolSearchText(tool);
      if (text !== undefined) full.set(`${splitWords(text.name).join(' ')} ${text.title}\n${text.description}`, project(columns[document]!));
    });
  }
  const textCounts = (text: string) => {
    const counts = new Map<string, number>();
    for (const term of searchTerms(text, termOptions)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  };
  // Rows of UΣ scaled to length 1, made on the first neighbours() call.
  let rows: Float64Array | undefined;
  const termRows = () => {
    const out = new Float64Array(m * k);
    for (let t = 0; t < m; t++) {
      let norm = 0;
      for (let c = 0; c < k; c++) norm += (u[t * k + c]! * sigma[c]!) ** 2;
      const inverse = 1 / (Math.sqrt(norm) || 1);
      for (let c = 0; c < k; c++) out[t * k + c] = u[t * k + c]! * sigma[c]! * inverse;
    }
    return out;
  };
  return {
    k,
    terms: m,
    sigma,
    embed: (text) => (full.has(text) ? full.get(text) : project(weigh(textCounts(text)))),
    neighbours: (term, count) => {
      const id = termIds.get(term);
      if (id === undefined) return [];
      rows ??= termRows();
      const scored: [string, number][] = [];
      for (let t = 0; t < m; t++) {
        if (t === id) continue;
        let dot = 0;
        for (let c = 0; c < k; c++) dot += rows[t * k + c]! * rows[id * k + c]!;
        scored.push([vocabulary[t]!, dot]);
      }
      return scored.sort((x, y) => y[1] - x[1]).slice(0, count);
    },
  };
}
