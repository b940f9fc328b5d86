import { describe, expect, it } from 'vitest';
import { contextWindowErrorText, parseContextWindowError } from './context-window-error.ts';

describe('parseContextWindowError', () => {
  it('reads the numbers of WebLLM’s error, as an Error or as the text a worker forwards', () => {
    const text = contextWindowErrorText(5_012, 4_096);
    expect(text).toBe(
      'Prompt tokens exceed context window size: number of prompt tokens: 5012; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.',
    );
    expect(parseContextWindowError(Object.assign(new Error(text), { name: 'ContextWindowSizeExceededError' }))).toEqual({ promptTokens: 5_012, contextWindow: 4_096 });
    expect(parseContextWindowError(text)).toEqual({ promptTokens: 5_012, contextWindow: 4_096 });
  });

  it('is undefined for any other error', () => {
    expect(parseContextWindowError(new Error('Cannot find WebGPU in the environment'))).toBeUndefined();
    expect(parseContextWindowError(undefined)).toBeUndefined();
  });
});
