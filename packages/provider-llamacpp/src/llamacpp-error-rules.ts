import type { ClassifierRule } from '@ctxkit/provider-utils';

/**
 * llama-server's own wordings, tried before the shared families of `@ctxkit/provider-utils`:
 * - a model a router does not have (`model not found`, `model ... is not found`): another server may.
 * Its overflows (`exceed_context_size_error` with `n_prompt_tokens` and `n_ctx`, `the request exceeds the
 * available context size`, llama-cpp-python's `Requested tokens (N) exceed context window of M`) and
 * `Loading model` (503: wait, or go elsewhere) are left to the shared families.
 */
export const llamacppErrorRules: readonly ClassifierRule[] = [
  (error) => (/\bmodel\b[^.]{0,80}?\b(?:is )?not found\b|unknown model|model_not_found/i.test(error.text) ? { kind: 'other', fallback: true, retryable: false } : undefined),
];
