// Decision 0101, "Tuned again under BM25F": createToolSearch's word match with every constant an option (the
// generic-word prior is a constant in src), for top1-sweep.ts and top1-diagnosis.ts. '{}' ranks as createToolSearch does.
// "A bonus for a word in two fields": `agreement` adds, for each query term a tool holds in two or more fields,
// `agreement` × the term's IDF (before the generic prior, as a term's score is); `agreementTop` applies it only to
// the order of the plain ranking's first `agreementTop` tools, so the set of the top 5 cannot change.
import { createBm25fIndex } from '../../src/bm25f-index.ts';
import { defaultStopWords, searchTerms, splitWords } from '../../src/search-terms.ts';
import { hubExcess, penaliseHubs } from '../../src/tool-hubness.ts';
import { toolSearchText } from '../../src/tool-search.ts';

export interface SweepOptions {
  name?: number;
  description?: number;
  parameters?: number;
  k?: number;
  b?: number;
  d?: number;
  genericPrior?: number;
  hubPenalty?: number;
  /** λ: a query term in two or more fields adds λ × its IDF. 0 (default) is today's ranking. */
  agreement?: number;
  /** Which fields count for the bonus: name and description both (default), or any two of the three. */
  agreementFields?: 'nameDescription' | 'any';
  /** Apply the bonus only to reorder the plain ranking's first N tools (after the hub correction). */
  agreementTop?: number;
}

type Fields = readonly [string, string, string];
const terms = { stopWords: new Set(defaultStopWords), stem: true };

/** Per tool, λ × IDF for each term in two or more fields (or name and description), times the tool's generic prior. */
function agreementBonus(fields: readonly Fields[], settings: Required<Omit<SweepOptions, 'agreementTop'>>) {
  const sets = fields.map((texts) => texts.map((text) => new Set(searchTerms(text, terms))));
  const frequency = new Map<string, number>();
  for (const tool of sets) for (const term of new Set(tool.flatMap((set) => [...set]))) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log(1 + (sets.length - (frequency.get(term) ?? 0) + 0.5) / ((frequency.get(term) ?? 0) + 0.5));
  const weights = [settings.name, settings.description, settings.parameters];
  const means = sets.map(([name, description]) => {
    const union = new Set([...name!, ...description!]);
    return union.size === 0 ? 0 : [...union].reduce((sum, term) => sum + idf(term), 0) / union.size;
  });
  const poolMean = means.reduce((sum, value) => sum + value, 0) / sets.length;
  const priors = means.map((mean) => (settings.genericPrior === 0 ? 1 : Math.min(1.5, Math.max(0.5, mean / poolMean)) ** settings.genericPrior));
  const agrees = (tool: Set<string>[], term: string) =>
    settings.agreementFields === 'any' ? tool.filter((set, field) => weights[field]! > 0 && set.has(term)).length >= 2 : tool[0]!.has(term) && tool[1]!.has(term);
  return (query: string) => {
    const bonus = new Map<number, number>();
    for (const term of searchTerms(query, terms)) {
      sets.forEach((tool, position) => {
        if (agrees(tool, term)) bonus.set(position, (bonus.get(position) ?? 0) + settings.agreement * idf(term) * priors[position]!);
      });
    }
    return bonus;
  };
}

/** createToolSearch's word match (no semantic blend) with every constant an option: names of the top `limit`. */
export function createSweepSearch(pool: readonly unknown[], options: SweepOptions) {
  const { agreementTop, ...rest } = options;
  const settings = { name: 3, description: 1, parameters: 0.05, k: 4, b: 0.7, d: 0.5, genericPrior: 0.3, hubPenalty: 2, agreement: 0, agreementFields: 'nameDescription' as const, ...rest };
  const names: string[] = [];
  const hubTexts: { position: number; text: string }[] = [];
  const documents = pool.map((tool, position) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    hubTexts.push({ position, text: `${splitWords(text.name).join(' ')} ${text.title}\n${text.description}` });
    return { id: position, fields: [`${text.name} ${text.title}`, text.description, text.parameters] as const };
  });
  const index = createBm25fIndex(documents, {
    weights: [settings.name, settings.description, settings.parameters],
    k: settings.k,
    b: settings.b,
    d: settings.d,
    genericPrior: settings.genericPrior,
    prefixMinLength: 0,
    terms,
  });
  const bonus =
    settings.agreement > 0
      ? agreementBonus(
          documents.map((document) => document.fields),
          settings,
        )
      : () => new Map<number, number>();
  const withBonus = (query: string) => {
    const scores = index.scores(query);
    for (const [position, extra] of bonus(query)) scores.set(position, (scores.get(position) ?? 0) + extra);
    return scores;
  };
  const lexical = agreementTop === undefined ? withBonus : index.scores;
  const excess = settings.hubPenalty > 0 ? hubExcess(hubTexts, lexical) : new Map<number, number>();
  const sorted = (scores: ReadonlyMap<number, number>) => [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const ranked = (query: string) => {
    const plain = sorted(penaliseHubs(lexical(query), excess, settings.hubPenalty));
    if (agreementTop === undefined || settings.agreement === 0) return plain;
    const extra = bonus(query);
    const head = plain.slice(0, agreementTop).map(([position, score]): [number, number] => [position, score + (extra.get(position) ?? 0)]);
    return [...sorted(new Map(head)), ...plain.slice(agreementTop)];
  };
  return {
    names,
    scores: (query: string) => penaliseHubs(lexical(query), excess, settings.hubPenalty),
    /** The top `limit` with their scores (the bonus included). */
    scored: (query: string, limit = 5) =>
      ranked(query)
        .slice(0, limit)
        .map(([position, score]) => ({ name: names[position]!, score })),
    rank: (query: string, limit = 5) =>
      ranked(query)
        .slice(0, limit)
        .map(([position]) => names[position]!),
  };
}
