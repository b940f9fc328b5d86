import { splitWords } from './search-terms.ts';

// Pseudo-queries drawn from the pool (every n-th tool), their length in words, and the share of
// tools left unpenalised. Chosen on MetaTool's tune half and APIBench TorchHub (decision 0070).
const bankSize = 128;
const queryWords = 12;
const unpenalisedShare = 0.9;
// Below this many tools a mean over the others' texts says little, and a pool that small has no room
// for hubs to crowd: nothing is penalised.
const minimumPool = 32;

/** A tool's own text, the source of the pseudo-queries. */
export interface HubBankText {
  position: number;
  text: string;
}

/**
 * How far each tool is a "hub" (a tool that scores on almost any request, such as a 5,000-character
 * description that mentions images, models, tasks and files): its mean word-match score against
 * pseudo-queries made of the other tools' names and descriptions, minus the 90th percentile of that
 * mean over the pool, floored at 0. Nine tools in ten get 0; only the top tenth is corrected, and
 * nothing in a pool of fewer than 32 tools.
 * Background normalisation of this kind is the remedy for hubs in nearest-neighbour retrieval
 * (CSLS, Conneau et al. 2018; querybank normalisation, Bogolin et al. 2022), one-sided here.
 */
export function hubExcess(texts: readonly HubBankText[], score: (query: string) => ReadonlyMap<number, number>): Map<number, number> {
  if (texts.length < minimumPool) return new Map();
  const totals = new Map<number, number>();
  const stride = Math.max(1, texts.length / bankSize);
  let queries = 0;
  for (let at = 0; at < texts.length; at += stride) {
    const source = texts[Math.floor(at)]!;
    queries++;
    for (const [position, value] of score(splitWords(source.text).slice(0, queryWords).join(' '))) {
      if (position !== source.position) totals.set(position, (totals.get(position) ?? 0) + value);
    }
  }
  const means = texts.map(({ position }) => (totals.get(position) ?? 0) / Math.max(1, queries));
  const sorted = [...means].sort((a, b) => a - b);
  const floor = sorted[Math.floor(unpenalisedShare * (sorted.length - 1))] ?? 0;
  const excess = new Map<number, number>();
  texts.forEach(({ position }, index) => {
    if (means[index]! > floor) excess.set(position, means[index]! - floor);
  });
  return excess;
}

/**
 * Word-match scores with each hub's excess taken off, `weight` times; a score stays above 0 (a
 * hundredth of what it was at least), so a matching tool is never dropped.
 */
export function penaliseHubs(lexical: ReadonlyMap<number, number>, excess: ReadonlyMap<number, number>, weight: number): Map<number, number> {
  if (weight === 0 || excess.size === 0) return new Map(lexical);
  const penalised = new Map<number, number>();
  for (const [position, score] of lexical) penalised.set(position, Math.max(score - weight * (excess.get(position) ?? 0), score / 100));
  return penalised;
}
