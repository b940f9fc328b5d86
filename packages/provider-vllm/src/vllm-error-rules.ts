import type { ClassifierRule } from '@ctxkit/provider-utils';

/**
 * vLLM's own wordings, tried before the shared families of `@ctxkit/provider-utils`:
 * - ``The model `x` does not exist.`` (404): this server does not serve the model, another may.
 * Its overflows (`This model's maximum context length is N tokens. However, you requested M tokens…`,
 * `You passed N input tokens and requested M output tokens. However, the model's context length is only…`)
 * and its `'max_tokens' or 'max_completion_tokens' is too large` are left to the shared families.
 */
export const vllmErrorRules: readonly ClassifierRule[] = [(error) => (/\bthe model\s+`[^`]*`\s+does not exist\b/i.test(error.text) ? { kind: 'other', fallback: true, retryable: false } : undefined)];
