import { CtxkitError, type Message, type TokenizerPlugin } from '@ctxkit/core';
import { corpusDir, listTrajectories, readTrajectory, transcriptArbitrary } from '@ctxkit/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heuristicEstimator } from './heuristic-estimator.ts';
import { imageTokenPresets } from './message-cost.ts';
import { createMeter } from './meter.ts';
import { tiktokenCounter } from './tiktoken-counter.ts';
import { type DistrustedUsage, isPlausibleUsage } from './usage-check.ts';

/** A tokenizer test double: one token per whitespace-separated word, with a record of what it counted. */
function wordTokenizer(options: { lazy?: boolean } = {}) {
  const counted: string[] = [];
  let loads = 0;
  let loaded = !options.lazy;
  const plugin: TokenizerPlugin<'words'> & { counted: string[]; readonly loads: number } = {
    specificationVersion: 'v1',
    kind: 'tokenizer',
    id: 'words',
    counted,
    get loads() {
      return loads;
    },
    count(text) {
      if (!loaded) throw new Error('not loaded');
      counted.push(text);
      return text.split(/\s+/).filter(Boolean).length;
    },
    ...(options.lazy
      ? {
          async load() {
            loads += 1;
            loaded = true;
          },
        }
      : {}),
  };
  return plugin;
}

/** The real o200k counter behind a load() of its own, so a test sees it unloaded even after another test loaded the ranks. */
function lazyO200k(): TokenizerPlugin<'lazy-o200k'> {
  const counter = tiktokenCounter('o200k_base');
  let ready = false;
  return {
    specificationVersion: 'v1',
    kind: 'tokenizer',
    id: 'lazy-o200k',
    count(text) {
      if (!ready) throw new Error('not loaded');
      return counter.count(text);
    },
    async load() {
      await counter.load();
      ready = true;
    },
  };
}

const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');

function run(): Message[] {
  return [
    { role: 'system', content: words(100) },
    { role: 'user', content: words(20) },
    { role: 'assistant', content: words(5), toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path": "src/app.ts"}' }] },
    { role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: words(300) },
    { role: 'assistant', content: words(10) },
  ];
}

// Framing defaults: 3 tokens a message, 3 a tool call, 3 a request.
const exactly = { perMessageOverhead: 3, toolCallOverhead: 3, requestOverhead: 3 };

describe('what is counted', () => {
  it('counts tool-call names and arguments, which are not in content', () => {
    const meter = createMeter({ tokenizer: wordTokenizer(), ...exactly });
    const withoutCall: Message[] = [{ role: 'assistant', content: 'ok' }];
    const withCall: Message[] = [{ role: 'assistant', content: 'ok', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command": "ls -la src tests"}' }] }];
    // 3 framing + 1 (name) + 5 (arguments: `{"command":` `"ls` `-la` `src` `tests"}`) more.
    expect(meter.countMessages(withCall) - meter.countMessages(withoutCall)).toBe(3 + 1 + 5);
    const estimated = createMeter();
    const longArguments: Message[] = [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'write_file', arguments: JSON.stringify({ content: 'x'.repeat(4000) }) }] }];
    expect(estimated.countMessages(longArguments)).toBeGreaterThan(1000);
  });

  it('counts tool results, the tool name, text parts and images at the configured cost', () => {
    const base = createMeter({ tokenizer: wordTokenizer(), ...exactly, requestOverhead: 0 });
    expect(base.countMessages([{ role: 'tool', toolCallId: 'c1', toolName: 'bash', content: words(50) }])).toBe(3 + 1 + 50);
    const withImage: Message[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: words(7) },
          { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      },
    ];
    expect(base.countMessages(withImage)).toBe(3 + 7 + 765);
    const anthropic = createMeter({ tokenizer: wordTokenizer(), ...exactly, requestOverhead: 0, imageTokens: imageTokenPresets.anthropic });
    expect(anthropic.countMessages(withImage)).toBe(3 + 7 + 1600);
    const bySize = createMeter({ tokenizer: wordTokenizer(), ...exactly, requestOverhead: 0, imageTokens: (part) => (part.data?.length ?? 0) * 10 });
    expect(bySize.countMessages(withImage)).toBe(3 + 7 + 120);
  });

  it('reports the floor (system + tools JSON + request framing) apart from the growing part', () => {
    const tools = [{ name: 'read_file', description: words(40), inputSchema: { type: 'object' } }];
    const meter = createMeter({ tokenizer: wordTokenizer(), ...exactly });
    const messages = run();
    const first = meter.measure(messages.slice(0, 2), { tools });
    const toolsTokens = JSON.stringify(tools).split(/\s+/).length;
    expect(first.floor).toBe(3 + (3 + 100) + toolsTokens);
    expect(first.growing).toBe(3 + 20);
    const later = meter.measure(messages, { tools });
    expect(later.floor).toBe(first.floor);
    expect(later.growing).toBeGreaterThan(first.growing + 300);
    expect(later.total).toBe(later.floor + later.growing);
    expect(meter.measure(messages).floor).toBe(3 + 103);
  });

  it('names the message index and field of bad input, and never counts it as zero', () => {
    const meter = createMeter();
    const cases: [unknown[], RegExp][] = [
      [
        [
          { role: 'user', content: 'a' },
          { role: 'developer', content: 'b' },
        ],
        /message 1 role: unknown role "developer"/,
      ],
      [
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'audio', data: 'x' },
            ],
          },
        ],
        /message 0 content\[1\]\.type: unknown part type "audio"/,
      ],
      [
        [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'ls' } }] },
        ],
        /message 1 toolCalls\[0\]\.arguments: must be the JSON text as a string, got object/,
      ],
      [[{ role: 'user', content: 42 }], /message 0 content: must be a string or an array of parts, got number/],
      [[{ role: 'system', content: [{ type: 'text', text: 'x' }] }], /message 0 content: must be a string/],
      [[null], /message 0: must be a message object, got null/],
    ];
    for (const [messages, expected] of cases) {
      for (const call of [() => meter.measure(messages as Message[]), () => meter.countMessages(messages as Message[])]) {
        expect(call).toThrow(expected);
        expect(call).toThrow(expect.objectContaining({ code: 'INVALID_TRANSCRIPT', message: expect.stringMatching(/^\[ctxkit:tokens\] /) }));
      }
    }
    const badImage = createMeter({ imageTokens: () => Number.NaN });
    expect(() => badImage.countMessages([{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', url: 'https://x/y.png' }] }])).toThrow(/message 0 content\[0\]: imageTokens gave number/);
    expect(() => meter.measure('nope' as never)).toThrow(/messages must be an array/);
  });
});

describe('anchoring on the provider report', () => {
  it('measures the report plus only the messages added since', () => {
    const tokenizer = wordTokenizer();
    const meter = createMeter({ tokenizer, ...exactly });
    const messages = run();
    meter.measure(messages.slice(0, 3), { model: 'gpt-4o' });
    meter.record({ inputTokens: 5_000, messageCount: 3, model: 'gpt-4o' });
    const after = meter.measure(messages, { model: 'gpt-4o' });
    expect(after).toMatchObject({ source: 'reported', reportedTokens: 5_000, unanchoredMessages: 2, confirmed: true, model: 'gpt-4o' });
    // The report says far more than the local count (calibration is bounded at 2), so the tail alone is local.
    const tail = 3 + 1 + 300 + (3 + 10);
    expect(after.total).toBe(5_000 + Math.ceil(meter.calibration('gpt-4o') * tail));
    expect(after.floor + after.growing).toBe(after.total);
  });

  it('keeps the anchor when the host appends to the same array in place', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run().slice(0, 3);
    meter.measure(messages);
    meter.record({ inputTokens: 200, messageCount: 3 });
    messages.push({ role: 'tool', toolCallId: 'c1', content: words(5) });
    expect(meter.measure(messages)).toMatchObject({ source: 'reported', unanchoredMessages: 1 });
  });

  it('drops the anchor after a compaction replaced earlier messages', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.measure(messages);
    meter.record({ inputTokens: 900, messageCount: 5 });
    expect(meter.measure(messages).source).toBe('reported');
    const compacted: Message[] = [messages[0]!, { role: 'user', content: 'Summary: read src/app.ts' }, messages[4]!];
    const measured = meter.measure(compacted);
    expect(measured.source).toBe('exact');
    expect(measured.reportedTokens).toBeUndefined();
    expect(measured.unanchoredMessages).toBe(3);
    // And it stays dropped even when the old transcript comes back: the report was for another prefix.
    expect(meter.measure(messages).source).toBe('exact');
  });

  it('drops the anchor when the host compacts its own array in place', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.measure(messages);
    meter.record({ inputTokens: 900, messageCount: 5 });
    messages.splice(1, 3, { role: 'user', content: 'Summary: read src/app.ts' });
    const measured = meter.measure(messages);
    expect(measured.source).toBe('exact');
    expect(measured.total).toBe(meter.countMessages(messages));
  });

  it('drops the anchor when one earlier message is replaced by an edited copy, and keeps it for an equal-length tail change', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.measure(messages.slice(0, 4));
    meter.record({ inputTokens: 900, messageCount: 4 });
    const tailEdited = [...messages.slice(0, 4), { role: 'assistant', content: 'different' } as Message];
    expect(meter.measure(tailEdited).source).toBe('reported');
    const edited = messages.map((message, index) => (index === 1 ? { ...message, content: 'edited task' } : message)) as Message[];
    expect(meter.measure(edited).source).toBe('exact');
  });

  it('drops the anchor on reset() and when the transcript got shorter than the report', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.measure(messages);
    meter.record({ inputTokens: 900, messageCount: 5 });
    meter.reset();
    expect(meter.measure(messages).source).toBe('exact');
    meter.record({ inputTokens: 900, messageCount: 5 });
    expect(meter.measure(messages.slice(0, 4)).source).toBe('exact');
  });

  it('does not use a report of one model for another, and uses it again for the model it came from', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.measure(messages, { model: 'gpt-4o' });
    meter.record({ inputTokens: 900, messageCount: 5, model: 'gpt-4o' });
    expect(meter.measure(messages, { model: 'claude-sonnet-4' }).source).toBe('exact');
    expect(meter.measure(messages, { model: 'gpt-4o' }).source).toBe('reported');
  });

  it('adjusts the anchor by the floor change when the tool definitions change', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    const tools = [{ name: 'a', description: words(10) }];
    meter.measure(messages, { tools });
    meter.record({ inputTokens: 1_000, messageCount: 5 });
    const ratio = meter.calibration();
    const more = [...tools, { name: 'b', description: words(50) }];
    const measured = meter.measure(messages, { tools: more });
    const added = JSON.stringify(more).split(/\s+/).length - JSON.stringify(tools).split(/\s+/).length;
    expect(measured.total).toBe(1_000 + Math.ceil(ratio * added));
    expect(measured.source).toBe('reported');
  });
});

describe('anchoring on the provider report: lower bounds and the transcript sent', () => {
  it('anchors on a lower-bound report without calibrating on it', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    const local = meter.countMessages(messages);
    meter.measure(messages, { model: 'qwen3' });
    meter.record({ inputTokens: 10, messageCount: 5, model: 'qwen3', inputIsLowerBound: true });
    expect(meter.calibration('qwen3')).toBe(1);
    expect(meter.measure(messages, { model: 'qwen3' })).toMatchObject({ source: 'reported', reportedTokens: local, total: local });
  });

  it('takes the transcript that was sent from record({ messages }), and refuses a count it cannot match', () => {
    const meter = createMeter({ tokenizer: wordTokenizer() });
    const messages = run();
    meter.record({ inputTokens: 700, messageCount: 4, messages });
    expect(meter.measure(messages)).toMatchObject({ source: 'reported', unanchoredMessages: 1 });
    expect(() => meter.record({ inputTokens: 700, messageCount: 9, messages })).toThrow(/messageCount 9 is past the 5 messages given/);
    // A compacted copy was sent but not passed: refused, rather than anchored on the wrong prefix.
    expect(() => meter.record({ inputTokens: 300, messageCount: 3 })).toThrow(
      /messageCount 3 does not match the 5 messages of the last measured transcript; pass the messages that were sent as record\(\{ messages \}\)/,
    );
    expect(() => meter.record({ inputTokens: -1, messageCount: 5 })).toThrow(/inputTokens must be a whole number ≥ 0, got -1/);
    expect(() => meter.record({ inputTokens: 1.5, messageCount: 5 })).toThrow(CtxkitError);
  });

  it('equals the full local count when the report equals the local count of its prefix (property)', async () => {
    const counter = tiktokenCounter('o200k_base');
    await counter.load();
    fc.assert(
      fc.property(transcriptArbitrary({ maxTurns: 4 }), fc.nat(), (messages, cut) => {
        const meter = createMeter({ tokenizer: counter });
        const count = messages.length === 0 ? 0 : cut % (messages.length + 1);
        const prefix = messages.slice(0, count);
        meter.measure(prefix);
        meter.record({ inputTokens: meter.countMessages(prefix), messageCount: count });
        const measured = meter.measure(messages);
        return measured.total === meter.countMessages(messages) && measured.source === 'reported';
      }),
      { numRuns: 60 },
    );
  });
});

describe('cost of a step', () => {
  it('counts only the new messages, not the transcript', () => {
    const tokenizer = wordTokenizer();
    const meter = createMeter({ tokenizer });
    const messages = run();
    meter.measure(messages.slice(0, 4));
    const before = tokenizer.counted.length;
    meter.measure(messages);
    expect(tokenizer.counted.slice(before)).toEqual([messages[4]!.content]);
    // A compaction that keeps message objects reuses their counts too.
    const again = tokenizer.counted.length;
    meter.measure([messages[0]!, messages[1]!, messages[4]!]);
    expect(tokenizer.counted.length).toBe(again);
  });

  it('notices a field reassigned on the same object and counts it again', () => {
    const meter = createMeter({ tokenizer: wordTokenizer(), ...exactly, requestOverhead: 0 });
    const message: Message = { role: 'user', content: words(10) };
    expect(meter.countMessages([message])).toBe(13);
    (message as { content: string }).content = words(20);
    expect(meter.countMessages([message])).toBe(23);
  });
});

describe('confirmation before an estimate-only compaction', () => {
  it('recounts exactly before saying an estimate is over the threshold, and can say no', async () => {
    // Prose at about 4.5 characters a token: the inflated heuristic says ~40% more than the exact count.
    const prose = 'The quick brown fox jumps over the lazy dog while the cat watches from the window. '.repeat(200);
    const messages: Message[] = [{ role: 'user', content: prose }];
    const meter = createMeter({ tokenizer: lazyO200k() });
    const estimate = meter.measure(messages);
    expect(estimate).toMatchObject({ source: 'estimate', confirmed: false });
    const exact = tiktokenCounter('o200k_base');
    await exact.load();
    const threshold = Math.floor((estimate.total + exact.count(prose)) / 2);
    expect(estimate.total).toBeGreaterThan(threshold);
    const verdict = await meter.exceeds(messages, threshold);
    expect(verdict).toMatchObject({ exceeds: false, confirmed: true, source: 'exact', threshold });
    expect(verdict.total).toBeLessThanOrEqual(threshold);
    const over = await meter.exceeds(messages, 100);
    expect(over).toMatchObject({ exceeds: true, confirmed: true });
  });

  it('does not load the tokenizer for a measurement under the threshold', async () => {
    const tokenizer = wordTokenizer({ lazy: true });
    const meter = createMeter({ tokenizer });
    const verdict = await meter.exceeds(run(), 1_000_000);
    expect(verdict).toMatchObject({ exceeds: false, confirmed: false, source: 'estimate' });
    expect(tokenizer.loads).toBe(0);
    const over = await meter.exceeds(run(), 10);
    expect(tokenizer.loads).toBe(1);
    expect(over).toMatchObject({ exceeds: true, confirmed: true, source: 'exact' });
  });

  it('confirms an anchored measurement by counting only the tail exactly', async () => {
    const tokenizer = wordTokenizer({ lazy: true });
    const meter = createMeter({ tokenizer });
    const messages = run();
    meter.measure(messages.slice(0, 4));
    meter.record({ inputTokens: 2_000, messageCount: 4 });
    const verdict = await meter.exceeds(messages, 1_000);
    expect(verdict).toMatchObject({ exceeds: true, confirmed: true, source: 'reported', unanchoredMessages: 1 });
    expect(tokenizer.counted).not.toContain(messages[3]!.content);
  });

  it('says exceeds but not confirmed when there is no tokenizer to confirm with', async () => {
    const verdict = await createMeter().exceeds(run(), 10);
    expect(verdict).toMatchObject({ exceeds: true, confirmed: false, source: 'estimate' });
    await expect(createMeter().exceeds(run(), Number.NaN)).rejects.toThrow(/threshold must be a finite number/);
  });

  it('turns a tokenizer that fails to load into TOKENIZER_FAILED, and can retry', async () => {
    let attempts = 0;
    const flaky: TokenizerPlugin<'flaky'> = {
      specificationVersion: 'v1',
      kind: 'tokenizer',
      id: 'flaky',
      count: (text) => text.length,
      async load() {
        attempts += 1;
        if (attempts === 1) throw new Error('network down');
      },
    };
    const meter = createMeter({ tokenizer: flaky });
    await expect(meter.exceeds(run(), 10)).rejects.toThrow(/\[ctxkit:tokens\] tokenizer flaky failed to load: network down/);
    await expect(meter.exceeds(run(), 10)).resolves.toMatchObject({ confirmed: true });
  });

  it('refuses an exact count before the tokenizer is loaded', () => {
    const meter = createMeter({ tokenizer: wordTokenizer({ lazy: true }) });
    expect(() => meter.countMessages(run(), { exact: true })).toThrow(/exact: true before the tokenizer words was loaded; await meter\.ready\(\) first/);
    expect(() => meter.countText('x', { exact: true })).toThrow(CtxkitError);
    expect(() => createMeter().countText('x', { exact: true })).toThrow(/needs a tokenizer/);
    expect(meter.countText('x'.repeat(40))).toBe(13);
  });
});

describe('calibration', () => {
  it('takes the first report of a model as its ratio and multiplies later local counts by it', () => {
    const meter = createMeter();
    const messages = run();
    const local = meter.countMessages(messages, { model: 'claude-sonnet-4' });
    meter.measure(messages, { model: 'claude-sonnet-4' });
    meter.record({ inputTokens: Math.round(local * 1.03), messageCount: 5, model: 'claude-sonnet-4' });
    expect(meter.calibration('claude-sonnet-4')).toBeCloseTo(1.03, 2);
    expect(meter.countMessages(messages, { model: 'claude-sonnet-4' })).toBe(Math.ceil(meter.calibration('claude-sonnet-4') * local));
    // Per model: another model is untouched.
    expect(meter.calibration('gemini-2.5-pro')).toBe(1);
    expect(meter.countMessages(messages, { model: 'gemini-2.5-pro' })).toBe(local);
  });

  it('moves toward a new reported ratio smoothly, and stays within bounds', () => {
    // plausibleUsageRatio 0: this test drives the calibration to its lower bound with absurd figures.
    const meter = createMeter({ calibration: { smoothing: 0.5 }, plausibleUsageRatio: 0 });
    const messages = run();
    const local = meter.countMessages(messages);
    meter.measure(messages);
    meter.record({ inputTokens: local, messageCount: 5 });
    expect(meter.calibration()).toBeCloseTo(1, 5);
    meter.record({ inputTokens: Math.round(local * 0.8), messageCount: 5 });
    expect(meter.calibration()).toBeCloseTo(0.9, 2);
    meter.record({ inputTokens: Math.round(local * 0.8), messageCount: 5 });
    expect(meter.calibration()).toBeCloseTo(0.85, 2);
    meter.record({ inputTokens: local * 100, messageCount: 5 });
    expect(meter.calibration()).toBeLessThanOrEqual(2);
    for (let step = 0; step < 20; step++) meter.record({ inputTokens: local * 100, messageCount: 5 });
    expect(meter.calibration()).toBeCloseTo(2, 3);
    for (let step = 0; step < 40; step++) meter.record({ inputTokens: 1, messageCount: 5 });
    expect(meter.calibration()).toBeCloseTo(0.5, 3);
    expect(meter.calibration()).toBeGreaterThanOrEqual(0.5);
  });

  it('keeps separate ratios for the estimator and the exact counter', async () => {
    const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
    await meter.ready();
    const messages: Message[] = [{ role: 'user', content: 'The quick brown fox jumps over the lazy dog. '.repeat(100) }];
    const exact = meter.countMessages(messages, { exact: true });
    meter.measure(messages, { model: 'gpt-4o' });
    meter.record({ inputTokens: exact, messageCount: 1, model: 'gpt-4o' });
    expect(meter.calibration('gpt-4o', 'exact')).toBe(1);
    // The heuristic errs high on prose, so its ratio comes out well under 1.
    expect(meter.calibration('gpt-4o', 'estimate')).toBeLessThan(0.85);
    expect(meter.countMessages(messages, { model: 'gpt-4o', exact: false })).toBeLessThanOrEqual(Math.ceil(exact * 1.01));
  });

  it('round-trips through a snapshot, and can be switched off', () => {
    const meter = createMeter();
    const messages = run();
    meter.measure(messages, { model: 'm' });
    meter.record({ inputTokens: 2 * meter.countMessages(messages, { model: 'm' }) - 100, messageCount: 5, model: 'm' });
    const snapshot = meter.calibrations();
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    const restored = createMeter({ calibrations: snapshot });
    expect(restored.calibration('m')).toBe(meter.calibration('m'));
    const off = createMeter({ calibration: false });
    off.measure(messages);
    off.record({ inputTokens: 5, messageCount: 5 });
    expect(off.calibration()).toBe(1);
    expect(() => createMeter({ calibrations: { m: { estimate: { ratio: -1, samples: 1 } } } })).toThrow(/calibrations\["m"\]\.estimate\.ratio must be a positive number/);
  });
});

describe('options', () => {
  it('rejects bad options with INVALID_ARGUMENT', () => {
    expect(() => createMeter({ perMessageOverhead: -1 })).toThrow(/perMessageOverhead must be a whole number ≥ 0, got -1/);
    expect(() => createMeter({ imageTokens: 'many' as never })).toThrow(/imageTokens must be a number or a function/);
    expect(() => createMeter({ tokenizer: heuristicEstimator() as never })).toThrow(/tokenizer must be a tokenizer plugin/);
    expect(() => createMeter({ calibration: { min: 0 } })).toThrow(/0 < min ≤ 1 ≤ max/);
    expect(() => createMeter({ calibration: { smoothing: 0 } })).toThrow(/smoothing must be in \(0, 1\]/);
  });

  it('breaks a transcript down by role and floor part', () => {
    const meter = createMeter({ tokenizer: wordTokenizer(), ...exactly });
    const tools = [{ name: 'x' }];
    const breakdown = meter.breakdown(run(), { tools });
    expect(breakdown.roles.tool).toEqual({ messages: 1, tokens: 3 + 1 + 300 });
    expect(breakdown.roles.assistant.messages).toBe(2);
    expect(breakdown.floor).toEqual({ system: 103, tools: 1, request: 3 });
    expect(breakdown.total).toBe(meter.countMessages(run(), { tools }));
    expect(breakdown.source).toBe('exact');
  });
});

describe.skipIf(!corpusDir())('on the recorded runs', () => {
  it('anchored measurements stay equal to the exact count while a run grows, report after report', async () => {
    const file = listTrajectories().find((name) => name.startsWith('taubench')) ?? listTrajectories()[0]!;
    const messages = readTrajectory(file);
    const meter = createMeter({ tokenizer: tiktokenCounter('o200k_base') });
    await meter.ready();
    for (let length = 2; length <= messages.length; length++) {
      const sent = messages.slice(0, length);
      const measured = meter.measure(sent, { model: 'gpt-4o' });
      const truth = meter.countMessages(sent, { model: 'gpt-4o' });
      if (length > 2) expect(measured.source).toBe('reported');
      expect(Math.abs(measured.total - truth)).toBeLessThanOrEqual(1);
      meter.record({ inputTokens: truth, messageCount: length, model: 'gpt-4o' });
    }
  });
});

describe('record() distrusts an implausibly low provider figure', () => {
  const long = (): Message[] => [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the failing test. '.repeat(50) },
    { role: 'assistant', content: 'Reading the file. '.repeat(200) },
    { role: 'user', content: 'continue '.repeat(300) },
  ];

  it('anchors on the local count, not on a tenth of it, and does not calibrate on it', () => {
    const distrusted: DistrustedUsage[] = [];
    const meter = createMeter({ onDistrustedUsage: (usage) => distrusted.push(usage) });
    const messages = long();
    const local = meter.measure(messages).total;
    meter.record({ inputTokens: Math.round(local * 0.1), messageCount: messages.length, model: 'm' });
    const after = meter.measure(messages, { model: 'm' });
    expect(after.total).toBeGreaterThanOrEqual(local);
    expect(meter.calibration('m')).toBe(1);
    expect(distrusted).toHaveLength(1);
    expect(distrusted[0]).toMatchObject({ reported: Math.round(local * 0.1), model: 'm' });
    expect(distrusted[0]!.reason).toMatch(/^the provider reported \d+ input tokens, under 0\.6 of the \d+ counted locally; anchored on \d+ instead$/);
  });

  it('believes a figure within the plausible share (another tokenizer), and calibrates on it', () => {
    const distrusted: DistrustedUsage[] = [];
    const meter = createMeter({ onDistrustedUsage: (usage) => distrusted.push(usage) });
    const messages = long();
    const local = meter.measure(messages).total;
    meter.record({ inputTokens: Math.round(local * 0.8), messageCount: messages.length });
    expect(meter.measure(messages).total).toBe(Math.round(local * 0.8));
    expect(distrusted).toEqual([]);
  });

  it('with plausibleUsageRatio 0 believes every figure, and rejects a ratio outside [0, 1)', () => {
    const meter = createMeter({ plausibleUsageRatio: 0 });
    const messages = long();
    const local = meter.measure(messages).total;
    meter.record({ inputTokens: Math.round(local * 0.1), messageCount: messages.length });
    expect(meter.measure(messages).total).toBe(Math.round(local * 0.1));
    expect(() => createMeter({ plausibleUsageRatio: 1 })).toThrow('[ctxkit:tokens] createMeter: plausibleUsageRatio must be a number from 0 up to (not including) 1, got 1');
    expect(isPlausibleUsage(599, 1_000)).toBe(false);
    expect(isPlausibleUsage(600, 1_000)).toBe(true);
  });
});
