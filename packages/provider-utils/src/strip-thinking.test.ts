import { describe, expect, it } from 'vitest';
import { stripThinking } from './strip-thinking.ts';

describe('stripThinking', () => {
  it('drops a leading reasoning block, whatever its case and the space around it', () => {
    expect(stripThinking('<think>\nThe user wants a summary.\n</think>\n\n## Task\nFix it')).toBe('## Task\nFix it');
    expect(stripThinking('  <THINK>x</THINK>## Task')).toBe('## Task');
  });

  it('keeps text without one, and a think tag that is not at the start', () => {
    expect(stripThinking('## Task\nFix it')).toBe('## Task\nFix it');
    expect(stripThinking('## Task\nexplain <think>x</think> tags')).toBe('## Task\nexplain <think>x</think> tags');
    expect(stripThinking('<think>unfinished reasoning')).toBe('<think>unfinished reasoning');
  });
});
