// Decision 0101's scratch scorer. `combine: 'sum'` with no other option reproduces createToolSearch's
// MiniSearch ranking before 0101 exactly (every field scored as its own BM25+, with its own IDF, and summed; field
// length = distinct terms); `combine: 'bm25f'` is Robertson, Zaragoza and Taylor's BM25F (CIKM 2004):
// a term's frequencies in the fields, weighted and length-normalised, are added before one saturation
// with one document-level IDF; `'{"combine":"bm25f","wName":3,"k":4,"genericPrior":0.3}'` is what
// createToolSearch does since 0101 (src/bm25f-index.ts). The hub correction of decision 0070 is applied on
// top, as in the package.
import { searchTerms, splitWords } from '../../src/search-terms.ts';
import { hubExcess, penaliseHubs } from '../../src/tool-hubness.ts';
import { toolSearchText } from '../../src/tool-search.ts';

export interface ScaleOptions {
  combine?: 'sum' | 'bm25f' | 'dismax';
  /** dismax: the best field's score plus this share of the others. */
  tie?: number;
  /** 'field' (MiniSearch's, per field) or 'doc' (a term's document frequency over all fields). */
  idf?: 'field' | 'doc';
  k?: number;
  b?: number;
  d?: number;
  bName?: number;
  bDescription?: number;
  /** Field weights: a score multiplier (sum, dismax) or a term-frequency weight (bm25f). */
  wName?: number;
  wDescription?: number;
  wParameters?: number;
  /** A field's length counts as at least this share of the field's average length. */
  lengthFloor?: number;
  /** sum: a term matched in the name and not in the description counts this much. */
  nameOnly?: number;
  /** Document frequencies count tools with the same description terms once. */
  collapseDuplicates?: boolean;
  /** Score × (the tool's mean word IDF / the pool's mean), clamped to 0.5–1.5, to this power. */
  genericPrior?: number;
  hubPenalty?: number;
}

interface IndexedTool {
  frequencies: Map<string, number>[];
  lengths: number[];
}

function indexTools(pool: readonly unknown[]) {
  const tools: IndexedTool[] = [];
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  pool.forEach((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    const fields = [`${text.name} ${text.title}`, text.description, text.parameters].map((value) => searchTerms(value));
    const frequencies = fields.map((terms) => {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      return counts;
    });
    tools.push({ frequencies, lengths: fields.map((terms) => new Set(terms).size) });
    hubTexts.push({ position, text: `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}` });
  });
  return { tools, names, hubTexts };
}

function frequencies(tools: readonly IndexedTool[], collapse: boolean) {
  const postings = new Map<string, number[]>();
  const fieldFrequency = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  const documentFrequency = new Map<string, number>();
  const seenTexts = new Set<string>();
  tools.forEach((tool, id) => {
    const terms = new Set(tool.frequencies.flatMap((counts) => [...counts.keys()]));
    for (const term of terms) postings.set(term, [...(postings.get(term) ?? []), id]);
    // With `collapse`, a tool whose description terms (or name terms, without a description) another
    // tool already had adds nothing to any document frequency, nor to the count of tools.
    const key = [...tool.frequencies[1]!.keys()].sort().join(' ') || [...tool.frequencies[0]!.keys()].sort().join(' ');
    if (collapse && seenTexts.has(key)) return;
    seenTexts.add(key);
    tool.frequencies.forEach((counts, field) => {
      for (const term of counts.keys()) fieldFrequency[field]!.set(term, (fieldFrequency[field]!.get(term) ?? 0) + 1);
    });
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  });
  return { postings, fieldFrequency, documentFrequency, distinctTools: collapse ? seenTexts.size : tools.length };
}

/** The lexical scores of a pool under one configuration, and a rank function with the hub correction. */
export function createScaleIndex(pool: readonly unknown[], options: ScaleOptions = {}) {
  const { tools, names, hubTexts } = indexTools(pool);
  const count = tools.length;
  const { postings, fieldFrequency, documentFrequency, distinctTools } = frequencies(tools, options.collapseDuplicates ?? false);
  const k = options.k ?? 2.2;
  const floor = options.d ?? 0.5;
  const bs = [options.bName ?? options.b ?? 0.7, options.bDescription ?? options.b ?? 0.7, options.b ?? 0.7];
  const weights = [options.wName ?? 1, options.wDescription ?? 1, options.wParameters ?? 0.05];
  const averages = [0, 1, 2].map((field) => tools.reduce((sum, tool) => sum + tool.lengths[field]!, 0) / count);
  const idf = (matching: number, total = count) => Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
  const documentIdf = (term: string) => idf(documentFrequency.get(term) ?? 1, distinctTools);
  const norm = (tool: IndexedTool, field: number) => 1 - bs[field]! + (bs[field]! * Math.max(tool.lengths[field]!, (options.lengthFloor ?? 0) * averages[field]!)) / (averages[field]! || 1);
  const meanIdf = tools.map((tool) => {
    const terms = new Set([...tool.frequencies[0]!.keys(), ...tool.frequencies[1]!.keys()]);
    let sum = 0;
    for (const term of terms) sum += documentIdf(term);
    return terms.size === 0 ? 0 : sum / terms.size;
  });
  const poolMeanIdf = meanIdf.reduce((sum, value) => sum + value, 0) / count;
  const termScore = (term: string, tool: IndexedTool): number => {
    if (options.combine === 'bm25f') {
      let weighted = 0;
      for (let field = 0; field < 3; field++) weighted += (weights[field]! * (tool.frequencies[field]!.get(term) ?? 0)) / norm(tool, field);
      return weighted === 0 ? 0 : documentIdf(term) * (floor + (weighted * (k + 1)) / (weighted + k));
    }
    const parts = [0, 1, 2].map((field) => {
      const frequency = tool.frequencies[field]!.get(term);
      if (!frequency) return 0;
      const termIdf = options.idf === 'doc' ? documentIdf(term) : idf(fieldFrequency[field]!.get(term) ?? 1, distinctTools);
      return weights[field]! * termIdf * (floor + (frequency * (k + 1)) / (frequency + k * norm(tool, field)));
    });
    if (options.nameOnly !== undefined && parts[0]! > 0 && parts[1] === 0) parts[0] = parts[0]! * options.nameOnly;
    const total = parts.reduce((sum, value) => sum + value, 0);
    if (options.combine !== 'dismax') return total;
    const best = Math.max(...parts);
    return best + (options.tie ?? 0) * (total - best);
  };
  const lexical = (query: string): Map<number, number> => {
    const scores = new Map<number, number>();
    for (const term of searchTerms(query)) {
      for (const id of postings.get(term) ?? []) {
        const score = termScore(term, tools[id]!);
        if (score > 0) scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    const prior = options.genericPrior ?? 0;
    if (prior > 0) for (const [id, score] of scores) scores.set(id, score * Math.min(1.5, Math.max(0.5, meanIdf[id]! / poolMeanIdf)) ** prior);
    return scores;
  };
  const hubPenalty = options.hubPenalty ?? 2;
  const excess = hubPenalty > 0 ? hubExcess(hubTexts, lexical) : new Map<number, number>();
  const rank = (query: string, options: { limit?: number } = {}) =>
    [...penaliseHubs(lexical(query), excess, hubPenalty)]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, options.limit ?? 5)
      .map(([index, score]) => ({ index, name: names[index]!, score }));
  return { rank, lexical, names };
}
