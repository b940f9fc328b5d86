import type { Falsy, StorePlugin, SummarizerPlugin, TierPlugin } from '@ctxkit/core';
import { memoryStore } from '@ctxkit/core';
import { type ContextManager, type ContextManagerOptions, createContextManager, type EditedFilesSourceOptions, editedFilesSource, planSource, taskSource, todosSource } from '@ctxkit/engine';
import { type ImageStripOptions, imageStripTier } from '@ctxkit/tier-images';
import { type MicrocompactOptions, microcompactTier } from '@ctxkit/tier-microcompact';
import { type SummaryTierOptions, summaryTier } from '@ctxkit/tier-summary';
import { type TrimTierOptions, trimTier } from '@ctxkit/tier-trim';
import { type TiktokenEncoding, tiktokenCounter } from '@ctxkit/tokens';

/** Options for {@link defaultPlugins}: settings of each first-party plugin, and the parts only the host has. */
export interface DefaultPluginsOptions {
  /** The active model's summarizer for tier 0 (a provider's `summarizer(model)`). Without one, tier 0 skips and trim writes a factual note. */
  summarizer?: SummarizerPlugin | Falsy;
  /** Where archived tool results live. @default memoryStore() */
  store?: StorePlugin;
  /** The exact tokenizer's encoding. @default 'o200k_base' */
  encoding?: TiktokenEncoding;
  summary?: SummaryTierOptions | false;
  microcompact?: MicrocompactOptions | false;
  images?: ImageStripOptions | false;
  /** An on-device tier (tier 1), e.g. `webllmTier()` from @ctxkit/tier-webllm, run after images and before trim. */
  onDevice?: TierPlugin | Falsy;
  trim?: TrimTierOptions;
  /** Edited files re-read from disk after a compaction; `false` in a browser. */
  editedFiles?: EditedFilesSourceOptions | false;
}

/**
 * Every first-party plugin in the order DESIGN.md §7 runs them: tier 0 summary, microcompaction, image
 * stripping, the on-device tier if given, trim; the o200k counter; the summarizer and store; and the
 * reinjection sources (task, plan, todos, edited files).
 * @example createContextManager({ model: 'gpt-4o', contextWindow: 128_000, plugins: defaultPlugins({ summarizer }) })
 */
export function defaultPlugins(options: DefaultPluginsOptions = {}) {
  return [
    options.summary !== false && summaryTier(options.summary || {}),
    options.microcompact !== false && microcompactTier(options.microcompact || {}),
    options.images !== false && imageStripTier(options.images || {}),
    options.onDevice,
    trimTier(options.trim ?? {}),
    tiktokenCounter(options.encoding ?? 'o200k_base'),
    options.summarizer,
    options.store ?? memoryStore(),
    taskSource(),
    planSource(),
    todosSource(),
    options.editedFiles !== false && editedFilesSource(options.editedFiles || {}),
  ] as const;
}

/** Options for {@link createCtxkit}: the manager's options and the preset's. */
export interface CreateCtxkitOptions extends Omit<ContextManagerOptions, 'registry'>, DefaultPluginsOptions {}

/**
 * A context manager with the default preset; `plugins` adds more (a provider, a reinjection source).
 * @example
 * ```ts
 * const manager = createCtxkit({ model: 'gpt-4o', contextWindow: 128_000, maxOutputTokens: 16_384 });
 * const { messages, report } = await manager.prepare(history);
 * ```
 */
export function createCtxkit(options: CreateCtxkitOptions): ContextManager {
  // The preset's own options become plugins; the manager gets the rest (it refuses options it does not read).
  const {
    summarizer: _summarizer,
    store: _store,
    encoding: _encoding,
    summary: _summary,
    microcompact: _microcompact,
    images: _images,
    onDevice: _onDevice,
    trim: _trim,
    editedFiles: _editedFiles,
    ...managerOptions
  } = options;
  return createContextManager({ ...managerOptions, plugins: [...defaultPlugins(options), ...(options.plugins ?? [])] });
}
