import type { ClassifierRule } from '@ctxkit/provider-utils';

/**
 * Ollama's own wordings, tried before the shared families of `@ctxkit/provider-utils`:
 * - `model "x" not found, try pulling it first` (404): this server lacks the model, another may have it;
 * - `timed out waiting for llama runner to start` (500): a timeout, not a broken request;
 * - `an error was encountered while running the model`, `llama runner process has terminated` (500, or
 *   an error line inside a 200 stream): the server failed, not the request, so another may serve it.
 * Overflows (`prompt too long; exceeded max context length by N tokens`, `the input length exceeds the
 * context length`) and `server busy ... maximum pending requests exceeded` (503) are left to the shared families.
 */
export const ollamaErrorRules: readonly ClassifierRule[] = [
  (error) => (/not found, try pulling it first|\bmodel\s+["'`][^"'`]+["'`]\s+not found\b/i.test(error.text) ? { kind: 'other', fallback: true, retryable: false } : undefined),
  (error) => (/timed out waiting for (?:the )?llama runner/i.test(error.text) ? { kind: 'timeout', retryable: true } : undefined),
  (error) =>
    /error was encountered while running the model|llama runner process (?:has )?(?:terminated|exited)|runner process no longer running/i.test(error.text)
      ? { kind: 'other', fallback: true, retryable: true }
      : undefined,
];
