import type { TokenizerPlugin } from '@ctxkit/core';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

/** An exact o200k_base counter for tests and the bench; callers of @ctxkit/schema pass their own (DESIGN.md §2). */
export function o200kTokenizer(): TokenizerPlugin<'o200k_base'> {
  let encoder: Tiktoken | undefined;
  return {
    specificationVersion: 'v1',
    kind: 'tokenizer',
    id: 'o200k_base',
    async load() {
      encoder ??= new Tiktoken(o200k);
    },
    count(text) {
      if (!encoder) throw new Error('o200k tokenizer used before load()');
      // Special-token text counts as ordinary text, as the plugin contract says.
      return encoder.encode(text, [], []).length;
    },
  };
}
