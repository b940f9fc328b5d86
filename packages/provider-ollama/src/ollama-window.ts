import { CtxkitError } from '@ctxkit/core';
import { type LocalDiscoveredLimits, type LocalDiscoveryContext, requestJson } from '@ctxkit/provider-utils';

/** The parts of Ollama's `POST /api/show` answer that say how long a model's context is. */
export interface OllamaShowResponse {
  /** The Modelfile parameters as text, one `name value` a line (`num_ctx 8192`). */
  parameters?: string;
  /** GGUF metadata; `<general.architecture>.context_length` is the trained length. */
  model_info?: Record<string, unknown> | null;
  /** Set for models Ollama serves from its cloud, at their full length. */
  remote_host?: string;
  remote_model?: string;
}

/** One model of Ollama's `GET /api/ps` answer (models loaded in memory). */
export interface OllamaRunningModel {
  name?: string;
  model?: string;
  /** The context the loaded model was given: what a request is served with. */
  context_length?: number;
}

/** Ollama's `GET /api/ps` answer. */
export interface OllamaPsResponse {
  models?: OllamaRunningModel[] | null;
}

/** Why a window is what it is. */
export type OllamaWindowBasis =
  /** The provider's `numCtx` option: the `options.num_ctx` the caller's requests set. */
  | 'request'
  /** `/api/ps`: the model is loaded with this context. */
  | 'loaded'
  /** A cloud model, served at its trained length. */
  | 'cloud'
  /** `num_ctx` in the Modelfile parameters. */
  | 'modelfile'
  /** Nothing set: the server's default context, as assumed. */
  | 'server-default';

/** A model's window as Ollama serves it, with the evidence behind it. */
export interface OllamaWindow {
  contextWindow: number;
  maxOutputTokens?: number;
  basis: OllamaWindowBasis;
  /** The length the model was trained for (`model_info`), when known. */
  trainedContextLength?: number;
}

/** What {@link ollamaWindow} reads. */
export interface OllamaWindowInput {
  model: string;
  show?: OllamaShowResponse | undefined;
  running?: OllamaPsResponse | undefined;
  /** The `options.num_ctx` the caller's requests set, if they set one. */
  numCtx?: number | undefined;
  /** The context Ollama gives a model nothing sets (`OLLAMA_CONTEXT_LENGTH`, else its VRAM-based default). */
  serverDefault: number;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

/** `qwen3` and `qwen3:latest` are one model; names compare without case. */
export function normalizeOllamaModel(model: string): string {
  const name = model.trim().toLowerCase();
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? name : `${name}:latest`;
}

/** The trained context length from `model_info`: `<arch>.context_length`, arch from `general.architecture`. */
export function trainedContextLength(modelInfo: Record<string, unknown> | null | undefined): number | undefined {
  if (!modelInfo) return undefined;
  const architecture = modelInfo['general.architecture'];
  if (typeof architecture === 'string') {
    const length = positive(modelInfo[`${architecture}.context_length`]);
    if (length) return length;
  }
  // Some architectures' keys do not follow general.architecture (older conversions): any *.context_length.
  for (const [key, value] of Object.entries(modelInfo)) if (key.endsWith('.context_length') && positive(value)) return value as number;
  return undefined;
}

/** A numeric parameter from `/api/show`'s `parameters` text (`num_ctx                        8192`). */
export function modelfileParameter(parameters: string | undefined, name: string): number | undefined {
  if (!parameters) return undefined;
  const match = new RegExp(`^\\s*${name}\\s+(-?\\d+)\\s*$`, 'm').exec(parameters);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/**
 * The window a request to an Ollama model is served with. In order: the caller's `num_ctx`; the
 * context of the loaded model (`/api/ps`); a cloud model's full length; the Modelfile's `num_ctx`;
 * the server default. Every one is capped at the trained length, as Ollama caps it.
 * Undefined when neither answer mentions the model.
 * @example
 * ```ts
 * ollamaWindow({ model: 'qwen3:8b', show, running: { models: [{ name: 'qwen3:8b', context_length: 8192 }] }, serverDefault: 4096 });
 * // { contextWindow: 8192, basis: 'loaded', trainedContextLength: 40960 }
 * ```
 */
export function ollamaWindow(input: OllamaWindowInput): OllamaWindow | undefined {
  const wanted = normalizeOllamaModel(input.model);
  const loaded = (input.running?.models ?? []).find((entry) => [entry.name, entry.model].some((name) => typeof name === 'string' && normalizeOllamaModel(name) === wanted));
  if (!input.show && !loaded) return undefined;
  const trained = trainedContextLength(input.show?.model_info);
  const numPredict = positive(modelfileParameter(input.show?.parameters, 'num_predict'));
  const cap = (value: number) => (trained ? Math.min(value, trained) : value);
  const window = (contextWindow: number, basis: OllamaWindowBasis): OllamaWindow => ({
    contextWindow,
    basis,
    ...(numPredict ? { maxOutputTokens: Math.min(numPredict, contextWindow) } : {}),
    ...(trained ? { trainedContextLength: trained } : {}),
  });
  const requested = positive(input.numCtx);
  if (requested) return window(cap(requested), 'request');
  const served = positive(loaded?.context_length);
  if (served) return window(served, 'loaded');
  if (trained && (input.show?.remote_host || input.show?.remote_model)) return window(trained, 'cloud');
  const modelfile = positive(modelfileParameter(input.show?.parameters, 'num_ctx'));
  if (modelfile) return window(cap(modelfile), 'modelfile');
  return window(cap(input.serverDefault), 'server-default');
}

/**
 * Asks an Ollama server (`POST /api/show` and `GET /api/ps`, together) for a model's window. A model
 * not loaded gets its Modelfile setting or the server default, marked `tentative`: a window stored while
 * it was loaded then stands (the server's `OLLAMA_CONTEXT_LENGTH` is invisible until it loads).
 * @throws ProviderCallError when the server cannot be reached or does not know the model
 */
export async function discoverOllamaWindow(context: LocalDiscoveryContext & { numCtx?: number | undefined }): Promise<LocalDiscoveredLimits | undefined> {
  const { call } = context;
  const [show, running] = await Promise.allSettled([
    requestJson<OllamaShowResponse>(`${context.root}/api/show`, { ...call, method: 'POST', body: { model: context.model } }),
    requestJson<OllamaPsResponse>(`${context.root}/api/ps`, call),
  ]);
  const window = ollamaWindow({
    model: context.model,
    show: show.status === 'fulfilled' ? show.value : undefined,
    running: running.status === 'fulfilled' ? running.value : undefined,
    numCtx: context.numCtx,
    serverDefault: context.defaultContextWindow,
  });
  if (!window) {
    const failure = show.status === 'rejected' ? show.reason : running.status === 'rejected' ? running.reason : undefined;
    if (failure) throw failure;
    throw new CtxkitError({ code: 'NOT_FOUND', source: context.provider, message: `${context.root} knows no model ${JSON.stringify(context.model)}` });
  }
  return {
    contextWindow: window.contextWindow,
    ...(window.maxOutputTokens ? { maxOutputTokens: window.maxOutputTokens } : {}),
    ...(window.basis === 'modelfile' || window.basis === 'server-default' ? { tentative: true } : {}),
  };
}
