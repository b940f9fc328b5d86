/** What WebLLM's `ContextWindowSizeExceededError` says: the prompt's tokens and the window, both as the model counts. */
export interface ContextWindowExceeded {
  promptTokens: number;
  contextWindow: number;
}

// WebLLM 0.2.x: "Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096\n…"
const pattern = /Prompt tokens exceed context window size: number of prompt tokens: (\d+); context window size: (\d+)/;

/**
 * Reads WebLLM's context-window error (`ContextWindowSizeExceededError`), from the engine itself or from
 * a web worker (which forwards only the message text); undefined for any other error.
 * @example
 * ```ts
 * parseContextWindowError(new Error('Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096'));
 * // { promptTokens: 5000, contextWindow: 4096 }
 * ```
 */
export function parseContextWindowError(error: unknown): ContextWindowExceeded | undefined {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : undefined;
  const match = text === undefined ? null : pattern.exec(text);
  return match ? { promptTokens: Number(match[1]), contextWindow: Number(match[2]) } : undefined;
}

/** The exact text WebLLM throws for a prompt longer than the window (for engine doubles and tests). */
export function contextWindowErrorText(promptTokens: number, contextWindow: number): string {
  return (
    `Prompt tokens exceed context window size: number of prompt tokens: ${promptTokens}; context window size: ${contextWindow}\n` +
    'Consider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.'
  );
}
