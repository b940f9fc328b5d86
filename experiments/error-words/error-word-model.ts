import type { ProviderErrorKind } from '@ctxkit/core';

/**
 * Word counts per error kind, learned from sourced provider errors (decision 0066): what
 * `guessErrorKind` reads when no wording rule named the error. Built by `buildErrorWordTable`;
 * the shipped table is `error-word-table.ts`, which a test rebuilds from the fixtures.
 */
export interface ErrorWordTable {
  /** The kinds, in the order every count list uses. */
  kinds: readonly ProviderErrorKind[];
  /** How many features each kind saw in training (the multinomial denominators). */
  totals: readonly number[];
  /** Features kept (seen at least twice): each with its count per kind. */
  counts: Readonly<Record<string, readonly number[]>>;
}

/** One training example: the text and status the classifier sees, and the kind it means. */
export interface ErrorWordExample {
  text: string;
  status?: number;
  kind: ProviderErrorKind;
}

const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The features of an error: lower-cased words with digits folded to `0`, adjacent word pairs, character
 * pairs for Chinese, Japanese and Korean text (written without spaces), and the status (`§429`, `§4xx`,
 * or `§none`). Each counted once.
 */
export function errorWordFeatures(text: string, status: number | undefined): Set<string> {
  const features = new Set<string>();
  const words: string[] = [];
  for (const token of text
    .toLowerCase()
    .replace(/\d+/g, '0')
    .split(/[^\p{L}\p{N}]+/u)) {
    if (token === '') continue;
    if (cjk.test(token)) {
      const characters = [...token];
      for (let index = 0; index + 1 < characters.length; index++) features.add(characters[index]! + characters[index + 1]!);
      continue;
    }
    words.push(token);
  }
  for (let index = 0; index < words.length; index++) {
    features.add(words[index]!);
    if (index + 1 < words.length) features.add(`${words[index]} ${words[index + 1]}`);
  }
  if (status === undefined) features.add('§none');
  else features.add(`§${status}`).add(`§${String(status)[0]}xx`);
  return features;
}

/** Counts features per kind over the examples, keeping those seen at least `minCount` times in all. */
export function buildErrorWordTable(examples: readonly ErrorWordExample[], minCount = 2): ErrorWordTable {
  const kinds = [...new Set(examples.map((example) => example.kind))].sort();
  const perFeature = new Map<string, number[]>();
  for (const example of examples) {
    const kindIndex = kinds.indexOf(example.kind);
    for (const feature of errorWordFeatures(example.text, example.status)) {
      let counts = perFeature.get(feature);
      if (!counts) perFeature.set(feature, (counts = kinds.map(() => 0)));
      counts[kindIndex]!++;
    }
  }
  const counts: Record<string, number[]> = {};
  const totals = kinds.map(() => 0);
  for (const feature of [...perFeature.keys()].sort()) {
    const featureCounts = perFeature.get(feature)!;
    if (featureCounts.reduce((sum, count) => sum + count, 0) < minCount) continue;
    counts[feature] = featureCounts;
    featureCounts.forEach((count, index) => {
      totals[index]! += count;
    });
  }
  return { kinds, totals, counts };
}

/** Laplace smoothing of the counts; small, since most features are seen by one kind only. */
const smoothing = 0.1;

/**
 * The kind the words of an error point to, with its posterior probability (multinomial naive Bayes,
 * even priors, over the features the table knows), or undefined when none of its features is known.
 */
export function guessErrorKind(table: ErrorWordTable, text: string, status: number | undefined, temper: 'none' | 'sqrt' = 'sqrt'): { kind: ProviderErrorKind; probability: number } | undefined {
  const vocabulary = Object.keys(table.counts).length;
  const known = [...errorWordFeatures(text, status)].filter((feature) => Object.hasOwn(table.counts, feature));
  if (known.every((feature) => feature.startsWith('§'))) return undefined;
  const scores = table.kinds.map((_kind, index) => {
    const denominator = Math.log(table.totals[index]! + smoothing * vocabulary);
    let score = 0;
    for (const feature of known) score += Math.log(table.counts[feature]![index]! + smoothing) - denominator;
    return score;
  });
  // Averaged over the features (a geometric mean of their likelihoods): a long text is no surer than a
  // short one, which plain naive Bayes, multiplying dozens of small odds, would be.
  const divisor = temper === 'sqrt' ? Math.sqrt(known.length) : 1;
  const tempered = scores.map((score) => score / divisor);
  scores.splice(0, scores.length, ...tempered);
  const best = Math.max(...scores);
  const sum = scores.reduce((total, score) => total + Math.exp(score - best), 0);
  const index = scores.indexOf(best);
  return { kind: table.kinds[index]!, probability: 1 / sum };
}
