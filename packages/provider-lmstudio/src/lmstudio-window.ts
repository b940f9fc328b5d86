import { CtxkitError } from '@ctxkit/core';
import { type LocalDiscoveredLimits, type LocalDiscoveryContext, ProviderCallError, requestJson } from '@ctxkit/provider-utils';

/** One model of LM Studio's `GET /api/v0/models`. */
export interface LmStudioModel {
  id: string;
  type?: string;
  arch?: string;
  state?: string;
  /** The longest context the model supports. */
  max_context_length?: number;
  /** The context the model is loaded with: what a request is served with. Present while loaded. */
  loaded_context_length?: number;
}

/** LM Studio's `GET /api/v0/models` answer. */
export interface LmStudioModelsResponse {
  data?: LmStudioModel[] | null;
}

/** One model of LM Studio's `GET /api/v1/models` (LM Studio 0.4 and later). */
export interface LmStudioV1Model {
  key: string;
  type?: string;
  max_context_length?: number;
  loaded_instances?: { id: string; config?: { context_length?: number } | null }[] | null;
}

/** LM Studio's `GET /api/v1/models` answer. */
export interface LmStudioV1ModelsResponse {
  models?: LmStudioV1Model[] | null;
}

/** A model's window as LM Studio serves it. */
export interface LmStudioWindow {
  contextWindow: number;
  /** `loaded`: the loaded context length; `not-loaded`: what a just-in-time load is assumed to give. */
  basis: 'loaded' | 'not-loaded';
  /** The longest context the model supports, when listed. */
  maxContextLength?: number;
}

interface Entry {
  ids: string[];
  loaded?: number;
  max?: number;
  instances: { id: string; contextLength?: number }[];
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

function entriesOf(models: LmStudioModelsResponse | LmStudioV1ModelsResponse): Entry[] {
  if ('models' in models && Array.isArray(models.models)) {
    return models.models.map((model) => {
      const instances = (model.loaded_instances ?? []).map((instance) => {
        const contextLength = positive(instance.config?.context_length);
        return { id: instance.id, ...(contextLength ? { contextLength } : {}) };
      });
      const max = positive(model.max_context_length);
      return { ids: [model.key, ...instances.map((instance) => instance.id)], instances, ...(max ? { max } : {}) };
    });
  }
  return ((models as LmStudioModelsResponse).data ?? []).map((model) => {
    const loaded = model.state === 'loaded' ? positive(model.loaded_context_length) : undefined;
    const max = positive(model.max_context_length);
    return { ids: [model.id], instances: [], ...(loaded ? { loaded } : {}), ...(max ? { max } : {}) };
  });
}

// Most exact first: the id as given, then without case, without an instance suffix (`:2`), without a publisher.
const matchers: ((id: string, wanted: string) => boolean)[] = [
  (id, wanted) => id === wanted,
  (id, wanted) => id.toLowerCase() === wanted.toLowerCase(),
  (id, wanted) => id.toLowerCase().replace(/:\d+$/, '') === wanted.toLowerCase().replace(/:\d+$/, ''),
  (id, wanted) => id.toLowerCase().split('/').pop() === wanted.toLowerCase().replace(/:\d+$/, '').split('/').pop(),
];

function find(entries: Entry[], model: string): { entry: Entry; id: string } | undefined {
  for (const matches of matchers) {
    for (const entry of entries) {
      const id = entry.ids.find((candidate) => matches(candidate, model));
      if (id !== undefined) return { entry, id };
    }
  }
  return undefined;
}

/**
 * The window a request to an LM Studio model is served with: the loaded context length while the model
 * is loaded (`loaded_context_length` over `max_context_length`); for a model not loaded, what a
 * just-in-time load gives, assumed as `unloadedContextLength` capped at `max_context_length`.
 * Reads `/api/v0/models` and `/api/v1/models` answers alike. Undefined for a model not listed.
 * @example
 * ```ts
 * lmstudioWindow({ model: 'qwen3-8b', models: { data: [{ id: 'qwen3-8b', state: 'loaded', max_context_length: 40960, loaded_context_length: 16384 }] }, unloadedContextLength: 4096 });
 * // { contextWindow: 16384, basis: 'loaded', maxContextLength: 40960 }
 * ```
 */
export function lmstudioWindow(input: { model: string; models: LmStudioModelsResponse | LmStudioV1ModelsResponse; unloadedContextLength: number }): LmStudioWindow | undefined {
  const found = find(entriesOf(input.models), input.model);
  if (!found) return undefined;
  const { entry, id } = found;
  const instance = entry.instances.find((candidate) => candidate.id === id) ?? entry.instances[0];
  const loaded = entry.loaded ?? instance?.contextLength;
  const max = entry.max;
  if (loaded) return { contextWindow: loaded, basis: 'loaded', ...(max ? { maxContextLength: max } : {}) };
  return { contextWindow: max ? Math.min(max, input.unloadedContextLength) : input.unloadedContextLength, basis: 'not-loaded', ...(max ? { maxContextLength: max } : {}) };
}

function listedIds(models: LmStudioModelsResponse | LmStudioV1ModelsResponse): string {
  const ids = entriesOf(models).map((entry) => entry.ids[0]);
  return ids.length === 0 ? 'none' : `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', ...' : ''}`;
}

/**
 * Asks LM Studio for a model's window: `GET /api/v0/models`, or `/api/v1/models` where v0 is gone.
 * A model not loaded gets the just-in-time context, marked `tentative`: a window stored while it was
 * loaded then stands, since the settings a just-in-time load uses are not visible from outside.
 * @throws ProviderCallError when the server cannot be reached; CtxkitError NOT_FOUND for a model it does not list
 */
export async function discoverLmStudioWindow(context: LocalDiscoveryContext & { unloadedContextLength?: number | undefined }): Promise<LocalDiscoveredLimits | undefined> {
  const { call } = context;
  let models: LmStudioModelsResponse | LmStudioV1ModelsResponse;
  try {
    models = await requestJson<LmStudioModelsResponse>(`${context.root}/api/v0/models`, call);
  } catch (error) {
    if (!(ProviderCallError.isInstance(error) && error.status === 404)) throw error;
    models = await requestJson<LmStudioV1ModelsResponse>(`${context.root}/api/v1/models`, call);
  }
  const window = lmstudioWindow({ model: context.model, models, unloadedContextLength: context.unloadedContextLength ?? context.defaultContextWindow });
  if (!window) {
    throw new CtxkitError({ code: 'NOT_FOUND', source: context.provider, message: `${context.root} lists no model ${JSON.stringify(context.model)} (it lists: ${listedIds(models)})` });
  }
  return { contextWindow: window.contextWindow, ...(window.basis === 'not-loaded' ? { tentative: true } : {}) };
}
