import { CtxkitError } from '@ctxkit/core';
import { type DiscoveredLimits, type LocalDiscoveryContext, requestJson } from '@ctxkit/provider-utils';

/** One model of vLLM's `GET /v1/models`. */
export interface VllmModel {
  id: string;
  root?: string | null;
  /** The base model of a LoRA adapter. */
  parent?: string | null;
  /** The context the engine was started with (`--max-model-len`): prompt and output together. */
  max_model_len?: number | null;
}

/** vLLM's `GET /v1/models` answer. */
export interface VllmModelsResponse {
  data?: VllmModel[] | null;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/**
 * The window vLLM serves a model with: its `max_model_len`; a LoRA adapter, listed without one, has its
 * base model's. Undefined for a model the server does not list (vLLM refuses requests for it).
 * @example
 * ```ts
 * vllmWindow({ model: 'sql-lora', models: { data: [{ id: 'Qwen/Qwen2.5-Coder-32B-Instruct', max_model_len: 32768 }, { id: 'sql-lora', parent: 'Qwen/Qwen2.5-Coder-32B-Instruct', max_model_len: null }] } });
 * // 32768
 * ```
 */
export function vllmWindow(input: { model: string; models: VllmModelsResponse }): number | undefined {
  const models = input.models.data ?? [];
  const entry = models.find((candidate) => candidate.id === input.model);
  if (!entry) return undefined;
  const own = positive(entry.max_model_len);
  if (own) return own;
  const base = entry.parent ? models.find((candidate) => candidate.id === entry.parent || candidate.root === entry.parent) : undefined;
  return positive(base?.max_model_len);
}

/**
 * Asks vLLM (`GET /v1/models`) for the window of a model.
 * @throws ProviderCallError when the server cannot be reached; CtxkitError NOT_FOUND for a model it does not serve
 */
export async function discoverVllmWindow(context: LocalDiscoveryContext): Promise<DiscoveredLimits | undefined> {
  const models = await requestJson<VllmModelsResponse>(`${context.root}/v1/models`, context.call);
  const contextWindow = vllmWindow({ model: context.model, models });
  if (contextWindow) return { contextWindow };
  const ids = (models.data ?? []).map((model) => model.id);
  const listed = ids.some((id) => id === context.model);
  throw new CtxkitError({
    code: 'NOT_FOUND',
    source: context.provider,
    message: listed
      ? `${context.root}/v1/models lists ${JSON.stringify(context.model)} without a max_model_len`
      : `${context.root} serves no model ${JSON.stringify(context.model)} (it serves: ${ids.join(', ') || 'none'})`,
  });
}
