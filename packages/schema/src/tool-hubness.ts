// SCRATCH: experimental hubness correction (issue 12, decision 0070).
import { splitWords } from './search-terms.ts';

export interface HubnessExperiment {
  weight: number;
  /** sub: s - w*c; div: s / (1 + w * c / mean c) */
  mode?: 'sub' | 'div' | 'z' | 'nk';
  /** one-sided: only the part of c above this quantile of all c is penalised */
  quantile?: number;
  /** nk: top-k of each bank query */
  k?: number;
  /** temperature of the log-mean-exp over bank scores (0 = plain mean) */
  beta?: number;
  /** CSLS-like: mean of the tool's top-k bank scores instead of all (0 = all) */
  topK?: number;
  /** pseudo-queries at most */
  bankSize?: number;
  /** words of each pseudo-query */
  queryWords?: number;
  /** what pseudo-queries are made of */
  source?: 'name' | 'name+description' | 'description';
  /** a bank of real requests instead of pseudo-queries */
  queries?: readonly string[];
  /** scale the correction by the query's number of distinct terms over queryWords */
  perTerm?: boolean;
}

export interface BankText {
  name: string;
  title: string;
  description: string;
}

/**
 * Per-tool correction c_t: the tool's scores against pseudo-queries made of other tools' texts.
 */
export const spreads = new Map<number, number>();
export let meanSpread = 0;
export function hubCorrections(texts: readonly BankText[], positions: readonly number[], score: (query: string) => Map<number, number>, experiment: HubnessExperiment): Map<number, number> {
  const bankSize = experiment.bankSize ?? 256;
  const words = experiment.queryWords ?? 12;
  const source = experiment.source ?? 'name+description';
  const stride = Math.max(1, texts.length / bankSize);
  const perTool = new Map<number, number[]>();
  const occurrences = new Map<number, number>();
  let bank = 0;
  for (const query of experiment.queries ?? []) {
    bank++;
    for (const [id, value] of score(query)) {
      let list = perTool.get(id);
      if (!list) perTool.set(id, (list = []));
      list.push(value);
    }
  }
  for (let at = 0; at < (experiment.queries ? 0 : texts.length); at += stride) {
    const index = Math.floor(at);
    const text = texts[index]!;
    const raw = source === 'name' ? `${text.name} ${text.title}` : source === 'description' ? text.description : `${text.name} ${text.title} ${text.description}`;
    const query = splitWords(raw).slice(0, words).join(' ');
    bank++;
    const scored = [...score(query)].filter(([id]) => id !== positions[index]).sort((a, b) => b[1] - a[1]);
    for (const [id] of scored.slice(0, experiment.k ?? 5)) occurrences.set(id, (occurrences.get(id) ?? 0) + 1);
    for (const [id, value] of score(query)) {
      if (id === positions[index]) continue;
      let list = perTool.get(id);
      if (!list) perTool.set(id, (list = []));
      list.push(value);
    }
  }
  const beta = experiment.beta ?? 0;
  const topK = experiment.topK ?? 0;
  const corrections = new Map<number, number>();
  for (const position of positions) {
    const list = perTool.get(position) ?? [];
    let value: number;
    if (topK > 0) {
      const sorted = [...list].sort((a, b) => b - a).slice(0, topK);
      value = sorted.reduce((sum, x) => sum + x, 0) / topK;
    } else if (beta > 0) {
      const zeros = bank - list.length;
      const sum = list.reduce((total, x) => total + Math.exp(beta * x), zeros);
      value = Math.log(sum / bank) / beta;
    } else {
      value = list.reduce((sum, x) => sum + x, 0) / bank;
    }
    corrections.set(position, value);
    const mean = list.reduce((sum, x) => sum + x, 0) / bank;
    const variance = list.reduce((sum, x) => sum + (x - mean) ** 2, 0) / bank + ((bank - list.length) * mean * mean) / bank;
    spreads.set(position, Math.sqrt(variance));
  }
  if (experiment.mode === 'nk') {
    const expected = ((experiment.k ?? 5) * bank) / positions.length;
    for (const position of positions) corrections.set(position, Math.max(0, Math.log((occurrences.get(position) ?? 0) / expected)));
  }
  if (experiment.quantile !== undefined) {
    const sorted = [...corrections.values()].sort((a, b) => a - b);
    const floor = sorted[Math.floor(experiment.quantile * (sorted.length - 1))]!;
    for (const [position, value] of corrections) corrections.set(position, Math.max(0, value - floor));
  }
  meanSpread = [...positions].reduce((sum, p) => sum + spreads.get(p)!, 0) / Math.max(1, positions.length);
  return corrections;
}

export function applyHubness(lexical: Map<number, number>, corrections: Map<number, number>, experiment: HubnessExperiment, meanCorrection: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, value] of lexical) {
    const c = corrections.get(id) ?? 0;
    if (experiment.mode === 'z') {
      out.set(id, (value - experiment.weight * c) / ((spreads.get(id) ?? 0) + (experiment.beta ?? 1) * meanSpread));
      continue;
    }
    if (experiment.mode === 'nk') {
      out.set(id, value * Math.exp(-experiment.weight * c));
      continue;
    }
    out.set(id, experiment.mode === 'div' ? value / (1 + (experiment.weight * c) / (meanCorrection || 1)) : value - experiment.weight * c);
  }
  return out;
}
