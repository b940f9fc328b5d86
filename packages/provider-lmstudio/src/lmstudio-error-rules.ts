import type { ClassifierRule } from '@ctxkit/provider-utils';

/**
 * LM Studio's own wordings, tried before the shared families of `@ctxkit/provider-utils`:
 * - `Trying to keep the first 5321 tokens when context the overflows. However, the model is loaded with
 *   context length of only 4096 tokens`: an overflow, with the tokens asked for and the loaded limit;
 * - `No models loaded`, `Failed to load model`, a model not found or unloaded: this server cannot serve
 *   the model now, another may.
 * Its other overflow wordings (`n_keep: 13055>= n_ctx: 4096`, `Reached context length of 4096 tokens`,
 * `Context size has been exceeded`) are left to the shared families.
 */
export const lmstudioErrorRules: readonly ClassifierRule[] = [
  (error) => {
    const match = /keep the first (\d+) tokens[\s\S]{0,120}?context length of only (\d+)/i.exec(error.text);
    return match ? { kind: 'context_overflow', reportedTokens: Number(match[1]), limitTokens: Number(match[2]) } : undefined;
  },
  (error) =>
    /no models? (?:are |is )?loaded|failed to load (?:the )?model|model_not_found|\bmodel\b[^.]{0,80}?\bnot found\b|model (?:has been |was )?unloaded/i.test(error.text)
      ? { kind: 'other', fallback: true, retryable: false }
      : undefined,
];
