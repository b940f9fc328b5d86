import sixtiethSet from './__fixtures__/provider-errors-holdout-60.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.ts';
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = sixtiethSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title:
    'classifyError on the sixtieth held-out set (issue 14: real bodies users pasted in issue threads of coding agents, chat UIs, orchestration tools and local servers no earlier set cites, measured untouched)',
  minEntries: 29,
  minReal: 29,
  minTests: 0,
  // Decision 0064, "A sixtieth set": the threads read held no uncited body of these kinds for the families left out, or
  // only bodies earlier fixtures already hold (Groq's per-minute template, Azure's token rate limit).
  families: familiesExcept('cerebras', 'vertex', 'mistral', 'groq', 'xai', 'together', 'fireworks', 'azure', 'ollama'),
  // As first labelled and committed: 26 of 29. One label was then corrected to decision 0064's reading of OpenAI's
  // "(X in the messages, Y in the completion)" sentence; the untouched classifier had read it so.
  untouched: '27 of 29 after one label was corrected (26 of 29 as first labelled): real 27 of 29, tests 0 of 0, token figures 22 of 24',
  untouchedWrong: 2,
});

// The families fixed after the set was measured, each with near misses that must keep their reading (decision 0064).
describe('the sixtieth set’s families', () => {
  it('reads a server that cannot truncate the input to its window as an overflow with both figures, and not a file truncated', () => {
    expect(classifyError('400 INVALID_ARGUMENT: Cannot truncate to 89998, required 355220')).toMatchObject({
      kind: 'context_overflow',
      limitTokens: 89998,
      reportedTokens: 355220,
    });
    expect(classifyError('Cannot truncate prompt to 4096 tokens, required 9000')).toMatchObject({ kind: 'context_overflow', limitTokens: 4096, reportedTokens: 9000 });
    // Truncating a file, or a cut with no requirement stated, is no prompt's overflow.
    expect(classifyError('Cannot truncate file to 0 bytes').kind).toBe('other');
    expect(classifyError('Cannot truncate to 100, table is locked').kind).toBe('other');
  });

  it('reads a token or request limit stated with its period as a rate limit, a quota where the period is a day or longer', () => {
    expect(classifyError('500 - Token limit (500,000 per day) exceeded. Used: 508,311 tokens.')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('Request limit of 1000 per month reached')).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(classifyError('Token limit (10,000 per minute) exceeded')).toMatchObject({ kind: 'rate_limit', retryable: true });
    // A limit with no period, or counted per request or per turn, is no rate limit.
    expect(classifyError('Token limit (4096) exceeded').kind).not.toBe('rate_limit');
    expect(classifyError('Token limit (100 per request) exceeded').kind).not.toBe('rate_limit');
    expect(classifyError('Tool call limit (10 per turn) exceeded').kind).not.toBe('rate_limit');
  });
});
