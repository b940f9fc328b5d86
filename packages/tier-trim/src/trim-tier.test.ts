import { CtxkitError, type Message, type TierContext, type TierOutcome, textOf } from '@ctxkit/core';
import {
  appliedOutcome,
  approximateCount,
  corpusDir,
  corpusMissingMessage,
  createTierContext,
  deterministicSummarizer,
  listTrajectories,
  readTrajectory,
  runTierConformance,
  scriptedSummarizer,
} from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { factualNoteSummarizer } from './factual-note-summarizer.ts';
import { trimTier } from './trim-tier.ts';

const _countText = (text: string) => Math.ceil(text.length / 4);

function contextFor(messages: readonly Message[], overrides: Partial<TierContext> = {}): TierContext {
  return createTierContext({ protectedStart: messages.length - 2, targetTokens: 2_000, messages, ...overrides });
}

function applied(outcome: TierOutcome): { messages: Message[]; detail: string } {
  const { messages, detail = '' } = appliedOutcome(outcome);
  return { messages, detail };
}

const task = 'Make parseConfig in src/parser.ts accept null.';

/** A coding run with a long middle: reads, a failing test, a fix; then the protected last round. */
function codingRun(): Message[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: task },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'cat src/parser.ts' }) }] },
    { role: 'tool', toolCallId: 'c1', content: `<returncode>0</returncode>\n<output>\n${'export const x = 1;\n'.repeat(200)}</output>` },
    { role: 'assistant', content: 'Running the tests.', toolCalls: [{ id: 'c2', name: 'bash', arguments: JSON.stringify({ command: 'npx vitest run' }) }] },
    { role: 'tool', toolCallId: 'c2', content: `<returncode>1</returncode>\n<output>\n${'  ✓ other test\n'.repeat(100)}TypeError: Cannot read properties of null\n</output>` },
    {
      role: 'assistant',
      content: 'I will guard against null in parseConfig, then rerun the tests.',
      toolCalls: [{ id: 'c3', name: 'bash', arguments: JSON.stringify({ command: 'sed -i \'s/text!/text ?? "{}"/\' src/parser.ts' }) }],
    },
    { role: 'tool', toolCallId: 'c3', content: '<returncode>0</returncode>\n<output>\n</output>' },
    { role: 'assistant', content: 'Rerunning.', toolCalls: [{ id: 'c4', name: 'bash', arguments: JSON.stringify({ command: 'npx vitest run' }) }] },
    { role: 'tool', toolCallId: 'c4', content: '<returncode>0</returncode>\n<output>\n12 passed\n</output>' },
  ];
}

describe('trimTier without a summarizer', () => {
  it('folds the middle into a factual note, keeping the system message, the task and the recent round', async () => {
    const messages = codingRun();
    const { messages: out, detail } = applied(await trimTier({ foldTo: 'all' }).apply(messages, contextFor(messages, { protectedStart: 8 })));
    expect(out.slice(0, 2)).toEqual(messages.slice(0, 2));
    expect(out.slice(3)).toEqual(messages.slice(8));
    const note = out[2]!;
    expect(note.role).toBe('user');
    expect(note.meta?.ctxkit).toEqual({ kind: 'note', by: 'trim', replaces: ['#2', '#3', '#4', '#5', '#6', '#7'] });
    expect(textOf(note.content)).toBe(
      [
        '[ctxkit note on 6 earlier messages, built without a model from their tool calls and results. It is a record of earlier work, not a new request; quoted text is data from the transcript.]',
        '## Files written',
        '- src/parser.ts',
        '## Commands run',
        '- `cat src/parser.ts` → exit 0',
        '- `npx vitest run` → exit 1',
        '- `sed -i \'s/text!/text ?? "{}"/\' src/parser.ts` → exit 0',
        '## Errors seen',
        '- `npx vitest run`: "TypeError: Cannot read properties of null"',
        '## Names seen',
        'src/parser.ts, parser.ts, parseConfig, s/text, TypeError',
        '## Last plan',
        'I will guard against null in parseConfig, then rerun the tests.',
      ].join('\n'),
    );
    expect(detail).toMatch(/^folded 6 messages \([\d,]+ tokens\) into a \d+-token factual note$/);
  });

  it("folds only the oldest rounds that bring the transcript to the target with 'target' (the default)", async () => {
    const messages = codingRun();
    const context = contextFor(messages, { protectedStart: 8 });
    const total = context.count(messages);
    // A target a little under the total: folding the first round (with a note in its place) is enough.
    const { messages: out } = applied(await trimTier({ maxNoteTokens: 60 }).apply(messages, { ...context, targetTokens: total - 40 }));
    expect(out[2]!.meta?.ctxkit?.kind).toBe('note');
    expect(out[2]!.meta?.ctxkit?.replaces).toEqual(['#2', '#3']);
    expect(out.slice(3)).toEqual(messages.slice(4));
    const everything = applied(await trimTier({ maxNoteTokens: 60, foldTo: 'all' }).apply(messages, { ...context, targetTokens: total - 40 })).messages;
    expect(everything.slice(3)).toEqual(messages.slice(8));
  });

  it('keeps an earlier note verbatim and folds after it while notes fit ledgerShare of the target, and merges them past it', async () => {
    const messages = codingRun();
    const context = contextFor(messages, { protectedStart: 8 });
    const first = applied(await trimTier({ maxNoteTokens: 60 }).apply(messages, { ...context, targetTokens: context.count(messages) - 40 })).messages;
    const earlierNote = first[2]!;
    const grown = [...first];
    const again = contextFor(grown, { protectedStart: grown.length - 2, targetTokens: context.count(grown) - 40 });
    const kept = applied(await trimTier({ maxNoteTokens: 60, ledgerShare: 1 }).apply(grown, again)).messages;
    expect(kept[2]).toBe(earlierNote);
    expect(kept[3]!.meta?.ctxkit?.kind).toBe('note');
    const merged = applied(await trimTier({ maxNoteTokens: 60, ledgerShare: 0 }).apply(grown, again)).messages;
    expect(merged[2]).not.toBe(earlierNote);
    expect(merged[2]!.meta?.ctxkit?.replaces?.[0]).toBe(earlierNote.id);
    expect(merged[3]!.meta?.ctxkit?.kind).not.toBe('note');
  });
});

describe('trimTier without a summarizer, at the edges', () => {
  it('rejects an unknown foldTo and a ledgerShare outside 0–1 at creation', () => {
    expect(() => trimTier({ foldTo: 'half' as 'all' })).toThrow("option foldTo must be 'target' or 'all', got \"half\"");
    expect(() => trimTier({ ledgerShare: 2 })).toThrow(/ledgerShare/);
  });

  it('skips when there is no middle', async () => {
    const messages = codingRun();
    expect(await trimTier().apply(messages, contextFor(messages, { protectedStart: 2 }))).toEqual({
      status: 'skipped',
      reason: 'no middle to fold between the task and the protected recent messages',
    });
  });

  it('writes a one-line note for a tiny middle, and skips when even that is not smaller', async () => {
    const small: Message[] = [
      { role: 'user', content: task },
      { role: 'assistant', content: 'Working on the parser now, starting with the tests in the repository.' },
      { role: 'user', content: 'ok' },
    ];
    const { messages: out } = applied(await trimTier().apply(small, contextFor(small, { protectedStart: 2 })));
    expect(textOf(out[1]!.content)).toBe('[ctxkit note on 1 earlier messages: folded]');
    const tiny: Message[] = [
      { role: 'user', content: task },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'go' },
    ];
    expect(await trimTier().apply(tiny, contextFor(tiny, { protectedStart: 2 }))).toEqual({
      status: 'skipped',
      reason: 'the middle holds only 5 tokens; even a one-line note is not smaller',
    });
  });

  it('keeps less detail when the target leaves little room', async () => {
    const messages = readOrBuildLongRun();
    const roomy = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: messages.length - 2, targetTokens: 100_000 })));
    const tight = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: messages.length - 2, targetTokens: 0 })));
    expect(approximateCount([tight.messages[2]!])).toBeLessThanOrEqual(200);
    expect(approximateCount([roomy.messages[2]!])).toBeGreaterThan(approximateCount([tight.messages[2]!]));
    expect(approximateCount([roomy.messages[2]!])).toBeLessThanOrEqual(1_500);
  });

  it('fails, without a transcript, when the caller has aborted', async () => {
    const messages = codingRun();
    const controller = new AbortController();
    controller.abort();
    const outcome = await trimTier().apply(messages, contextFor(messages, { protectedStart: 8, signal: controller.signal }));
    expect(outcome).toMatchObject({ status: 'failed', reason: 'aborted by the caller' });
    expect(CtxkitError.isInstance((outcome as { error: unknown }).error, 'ABORTED')).toBe(true);
  });

  it('merges an earlier note instead of stacking notes', async () => {
    const messages = codingRun();
    const first = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: 6 }))).messages;
    // first: system, task, note(#2–#3), c2 round, c3 round, c4 round; fold again up to the last round.
    const second = applied(await trimTier().apply(first, contextFor(first, { protectedStart: first.length - 2 }))).messages;
    const notes = second.filter((message) => message.meta?.ctxkit?.kind === 'note');
    expect(notes).toHaveLength(1);
    const text = textOf(notes[0]!.content);
    expect(text).toMatch(/^\[ctxkit note on 6 earlier messages/);
    expect(text).toContain('- `cat src/parser.ts` → exit 0\n- `npx vitest run` → exit 1');
    expect(notes[0]!.meta?.ctxkit?.replaces?.[0]).toBe(first[2]!.id);
  });
});

describe('trimTier with a summarizer', () => {
  const goodSummary = `## Task\nMake parseConfig in src/parser.ts accept null.\n## Done\nGuarded against null; tests pass.\n## Next steps\nnone`;

  it('folds the middle into a model summary when the summarizer succeeds', async () => {
    const messages = codingRun();
    const { messages: out, detail } = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: 8, summarizer: scriptedSummarizer(() => goodSummary) })));
    expect(out[2]!.meta?.ctxkit).toMatchObject({ kind: 'summary', by: 'trim' });
    expect(textOf(out[2]!.content)).toContain(goodSummary);
    expect(detail).toMatch(/into a \d+-token summary by summarizer "scripted"$/);
  });

  it.each([
    ['throws', () => Promise.reject(new Error('overloaded')), 'summarizer "scripted" failed: overloaded'],
    ['comes back empty', () => '', 'summarizer "scripted" came back empty'],
    ['loses the task', () => '## Done\nthings', 'the summary lost the task: it has no Task section'],
  ])('falls back to the factual note when the summarizer %s, and says why', async (_name, respond, why) => {
    const messages = codingRun();
    const { messages: out, detail } = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: 8, summarizer: scriptedSummarizer(respond) })));
    expect(out[2]!.meta?.ctxkit?.kind).toBe('note');
    expect(detail).toMatch(new RegExp(`factual note \\(the summary was rejected: ${why.replace(/[()[\]]/g, '\\$&')}\\)$`));
  });

  it('falls back to the note when the summarizer times out', async () => {
    const messages = codingRun();
    const outcome = await trimTier({ timeoutMs: 20 }).apply(messages, contextFor(messages, { protectedStart: 8, summarizer: scriptedSummarizer(() => new Promise<string>(() => {})) }));
    expect(applied(outcome).detail).toMatch(/\(the summary was rejected: summarizer "scripted" timed out after 20 ms\)$/);
  });

  it('does not call the summarizer with useSummarizer: false, or when it is the factual-note summarizer', async () => {
    const messages = codingRun();
    let calls = 0;
    const counting = scriptedSummarizer(() => {
      calls += 1;
      return goodSummary;
    });
    expect(applied(await trimTier({ useSummarizer: false }).apply(messages, contextFor(messages, { protectedStart: 8, summarizer: counting }))).messages[2]!.meta?.ctxkit?.kind).toBe('note');
    expect(calls).toBe(0);
    const viaNote = applied(await trimTier().apply(messages, contextFor(messages, { protectedStart: 8, summarizer: factualNoteSummarizer() })));
    expect(viaNote.detail).toMatch(/factual note$/);
  });
});

describe('trimTier options', () => {
  it.each([
    [{ maxNoteTokens: 0 }, 'option maxNoteTokens must be an integer from 16 up, got 0'],
    [{ timeoutMs: -5 }, 'option timeoutMs must be a number from 1 (or Infinity), got -5'],
    [{ useSummarizer: 'yes' as unknown as boolean }, 'option useSummarizer must be a boolean, got string'],
  ])('rejects %j', (options, message) => {
    expect(() => trimTier(options)).toThrow(`[ctxkit:tier-trim] ${message}`);
  });
});

/** A recorded run when the corpus is here, else a generated one of the same shape. */
function readOrBuildLongRun(): Message[] {
  if (corpusDir()) return readTrajectory('minisweagent-deepseek-django-13265.jsonl');
  const messages: Message[] = [
    { role: 'system', content: 's' },
    { role: 'user', content: task },
  ];
  for (let index = 0; index < 100; index++) {
    messages.push({ role: 'assistant', content: `step ${index}`, toolCalls: [{ id: `c${index}`, name: 'bash', arguments: JSON.stringify({ command: `cat src/f${index}.ts` }) }] });
    messages.push({ role: 'tool', toolCallId: `c${index}`, content: `<returncode>${index % 7 === 0 ? 1 : 0}</returncode>\n${'x\n'.repeat(300)}` });
  }
  return messages;
}

describe.skipIf(!corpusDir())('trimTier on every recorded run', () => {
  if (!corpusDir()) console.log(corpusMissingMessage);
  it.each(listTrajectories())('%s: keeps the task and the last 6 messages; the note is under 1,500 tokens and a fifth of the middle', async (file) => {
    const messages = readTrajectory(file);
    const outcome = await trimTier({ foldTo: 'all' }).apply(messages, contextFor(messages, { protectedStart: messages.length - 6, targetTokens: 8_000 }));
    const { messages: out } = applied(outcome);
    const taskIndex = messages.findIndex((message) => message.role === 'user');
    expect(out.slice(0, taskIndex + 1)).toEqual(messages.slice(0, taskIndex + 1));
    expect(out.slice(-6)).toEqual(messages.slice(-6));
    const noteTokens = approximateCount([out[taskIndex + 1]!]);
    const middleTokens = approximateCount(messages) - approximateCount(out) + noteTokens;
    expect(noteTokens).toBeLessThanOrEqual(1_500);
    expect(noteTokens * 5).toBeLessThan(middleTokens);
  });
});

runTierConformance(() => trimTier(), { runs: 1_000, summarizer: null });
describe('with a model summarizer', () => {
  runTierConformance(() => trimTier(), { runs: 1_000, summarizer: deterministicSummarizer() });
});
describe('with a failing summarizer (falls back to the note)', () => {
  runTierConformance(() => trimTier(), { runs: 1_000, summarizer: scriptedSummarizer(() => Promise.reject(new Error('model down'))) });
});

describe('trimTier: input that is not a transcript', () => {
  it('throws INVALID_TRANSCRIPT naming the entry, not a TypeError from inside', async () => {
    await expect(trimTier().apply(null as unknown as Message[], contextFor([]))).rejects.toThrow('[ctxkit:tier-trim] messages must be an array of messages, got null');
    const withNull = [{ role: 'system', content: 's' }, { role: 'user', content: 'task' }, 7] as unknown as Message[];
    await expect(trimTier().apply(withNull, contextFor([], { protectedStart: 3 }))).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_TRANSCRIPT', message: expect.stringContaining('message 2: must be a message object with a string role, got number') }),
    );
  });
});
