import { CtxkitError } from '@ctxkit/core';
import { type LocalDiscoveredLimits, type LocalDiscoveryContext, requestJson } from '@ctxkit/provider-utils';

/** The parts of llama-server's `GET /props` that say how long a request may be. */
export interface LlamaCppProps {
  /** The settings of a slot; `n_ctx` is the context one request gets (the server's, divided among parallel slots). */
  default_generation_settings?: { n_ctx?: number; params?: { n_predict?: number } | null } | null;
  /** Older builds put the context size at the top. */
  n_ctx?: number;
  total_slots?: number;
  model_path?: string;
}

/** One model of llama-server's `GET /v1/models`; in router mode each has a `status`. */
export interface LlamaCppModel {
  id: string;
  /** The loaded model's metadata; null while it loads, absent for a model the router has not loaded. */
  meta?: { n_ctx_train?: number; n_ctx?: number } | null;
  /** Router mode: `unloaded`, `loading`, `loaded`, `sleeping`, and the arguments the instance runs with. */
  status?: { value?: string; args?: string[] | null } | null;
}

/** llama-server's `GET /v1/models` answer. */
export interface LlamaCppModelsResponse {
  data?: LlamaCppModel[] | null;
}

/** Why a window is what it is. */
export type LlamaCppWindowBasis =
  /** `/props`: the context of a slot of the running server. */
  | 'props'
  /** `meta.n_ctx` of `/v1/models`. */
  | 'meta'
  /** Router mode, model not running: the `--ctx-size` (and `--parallel`) it will be started with. */
  | 'arguments'
  /** Nothing says: the default, capped at the trained length. */
  | 'assumed';

/** A model's window as llama-server serves it. */
export interface LlamaCppWindow {
  contextWindow: number;
  maxOutputTokens?: number;
  basis: LlamaCppWindowBasis;
  /** `meta.n_ctx_train`, when known. */
  trainedContextLength?: number;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

function argument(args: readonly string[], names: readonly string[]): number | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    for (const name of names) {
      if (arg === name) return Number(args[index + 1]);
      if (arg.startsWith(`${name}=`)) return Number(arg.slice(name.length + 1));
    }
  }
  return undefined;
}

/**
 * The context one request gets from the arguments a router starts a model with: `--ctx-size` divided
 * among `--parallel` slots; `--ctx-size 0` means the trained length. Undefined when they do not say.
 * @example contextFromArguments(['llama-server', '--ctx-size', '16384', '-np', '2'], 40960) // 8192
 */
export function contextFromArguments(args: readonly string[] | null | undefined, trained?: number): number | undefined {
  if (!args) return undefined;
  const size = argument(args, ['-c', '--ctx-size', '-ctx']);
  if (size === undefined || !Number.isInteger(size) || size < 0) return undefined;
  const total = size === 0 ? trained : size;
  if (!total) return undefined;
  const parallel = argument(args, ['-np', '--parallel']);
  return parallel !== undefined && Number.isInteger(parallel) && parallel > 1 ? Math.floor(total / parallel) : total;
}

/**
 * The window a request to a llama-server model gets: a slot's `n_ctx` from `/props`, else `meta.n_ctx`,
 * else (router mode, model not running) the context its arguments give, else the default capped at
 * `meta.n_ctx_train`. `maxOutputTokens` is the server's `--n-predict` when it sets one.
 * @example
 * ```ts
 * llamacppWindow({ props: { default_generation_settings: { n_ctx: 8192 } }, model: { id: 'qwen3', meta: { n_ctx_train: 40960 } }, defaultContextWindow: 4096 });
 * // { contextWindow: 8192, basis: 'props', trainedContextLength: 40960 }
 * ```
 */
export function llamacppWindow(input: { props?: LlamaCppProps | undefined; model?: LlamaCppModel | undefined; defaultContextWindow: number }): LlamaCppWindow {
  const trained = positive(input.model?.meta?.n_ctx_train);
  const predict = positive(input.props?.default_generation_settings?.params?.n_predict);
  const window = (contextWindow: number, basis: LlamaCppWindowBasis): LlamaCppWindow => ({
    contextWindow,
    basis,
    ...(predict ? { maxOutputTokens: Math.min(predict, contextWindow) } : {}),
    ...(trained ? { trainedContextLength: trained } : {}),
  });
  const slot = positive(input.props?.default_generation_settings?.n_ctx) ?? positive(input.props?.n_ctx);
  if (slot) return window(slot, 'props');
  const meta = positive(input.model?.meta?.n_ctx);
  if (meta) return window(meta, 'meta');
  const fromArguments = contextFromArguments(input.model?.status?.args, trained);
  if (fromArguments) return window(fromArguments, 'arguments');
  return window(trained ? Math.min(trained, input.defaultContextWindow) : input.defaultContextWindow, 'assumed');
}

/**
 * Asks llama-server for a model's window. One model (the usual `llama-server -m`): `/props`, which
 * serves whatever model name a request gives. Router mode (models listed with a `status`): the listed
 * model, and `/props?model=…&autoload=false` while it runs, so asking never loads a model. A window from
 * the arguments or a guess is marked `tentative`: a window stored while the model ran then stands.
 * @throws ProviderCallError when the server cannot be reached; CtxkitError NOT_FOUND for a model a router does not list
 */
export async function discoverLlamaCppWindow(context: LocalDiscoveryContext): Promise<LocalDiscoveredLimits | undefined> {
  const { call } = context;
  let listed: LlamaCppModel[] | undefined;
  let listError: unknown;
  try {
    listed = (await requestJson<LlamaCppModelsResponse>(`${context.root}/v1/models`, call)).data ?? [];
  } catch (error) {
    listError = error;
  }
  const router = listed?.some((entry) => entry.status !== undefined && entry.status !== null) ?? false;
  let model: LlamaCppModel | undefined;
  let props: LlamaCppProps | undefined;
  if (router && listed) {
    model = listed.find((entry) => entry.id === context.model) ?? listed.find((entry) => entry.id.toLowerCase() === context.model.toLowerCase());
    if (!model) {
      const ids = listed.map((entry) => entry.id);
      throw new CtxkitError({
        code: 'NOT_FOUND',
        source: context.provider,
        message: `${context.root} routes no model ${JSON.stringify(context.model)} (it lists: ${ids.slice(0, 10).join(', ') || 'none'})`,
      });
    }
    if (model.status?.value === 'loaded') {
      const query = new URLSearchParams({ model: model.id, autoload: 'false' });
      props = await requestJson<LlamaCppProps>(`${context.root}/props?${query}`, call).catch(() => undefined);
    }
  } else {
    // One model behind the server: it answers to any name, so its window is the one.
    model = listed?.[0];
    try {
      props = await requestJson<LlamaCppProps>(`${context.root}/props`, call);
    } catch (error) {
      // Without /props only the metadata can tell; a model still loading has none, and a guess is no discovery.
      if (!model?.meta) throw listError ?? error;
    }
  }
  const window = llamacppWindow({ props, model, defaultContextWindow: context.defaultContextWindow });
  return {
    contextWindow: window.contextWindow,
    ...(window.maxOutputTokens ? { maxOutputTokens: window.maxOutputTokens } : {}),
    ...(window.basis === 'arguments' || window.basis === 'assumed' ? { tentative: true } : {}),
  };
}
