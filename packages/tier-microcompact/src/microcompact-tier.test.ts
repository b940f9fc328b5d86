import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Message, memoryStore, type StorePlugin, type TierOutcome, type ToolMessage, validateTranscript } from '@ctxkit/core';
import { fileStore } from '@ctxkit/store';
import { appliedOutcome, checkTierOutput, runTierConformance } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { codingRun, tierContext } from './__fixtures__/tier-context.ts';
import { type ArchivedToolResult, readArchivedToolResult } from './archive.ts';
import { microcompactTier } from './microcompact-tier.ts';
import { createRestoreHandler } from './restore-handler.ts';

const applied = (outcome: TierOutcome) => appliedOutcome(outcome).messages;

const handlesOf = (messages: readonly Message[]) => messages.flatMap((message) => (message.meta?.ctxkit?.handle ? [message.meta.ctxkit.handle] : []));

runTierConformance(() => microcompactTier({ keepRecent: 1, minSavingsTokens: 0, minResultTokens: 20 }), { runs: 1000 });
// The defaults, with the minimum saving lowered so the generated transcripts (a few KB) compact.
runTierConformance(() => microcompactTier({ minSavingsTokens: 0 }), { runs: 1000 });

describe('microcompactTier on a coding run', () => {
  it('turns tool results older than the last three into stubs that name the call and a handle', async () => {
    const messages = codingRun();
    const context = tierContext({ messages, protectedStart: 12 });
    const output = applied(await microcompactTier({ stubDetail: false }).apply(messages, context));

    expect(output[3]).toEqual({
      role: 'tool',
      toolCallId: 'call_a1',
      toolName: 'read_file',
      content: '[tool result 1 archived: read_file src/app.ts, 3,333 tokens; restore with restore_tool_result("r1")]',
      meta: { ctxkit: { kind: 'stub', by: 'microcompact', replaces: ['#3'], handle: 'r1' } },
    });
    expect(output[5]!.content).toBe('[tool result 2 archived: bash npm test -- --run 2>&1 | tail -200, 1,583 tokens; restore with restore_tool_result("r2")]');
    // The three most recent tool results (7, 9, 11) and everything else stay as they were.
    for (const index of [0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12]) expect(output[index]).toBe(messages[index]);
    expect(validateTranscript(output)).toEqual([]);
    expect(await checkTierOutput(messages, output, { protectedStart: 12, count: context.count, store: context.store })).toEqual([]);
  });

  it('archives the original with what identifies it, and the handler restores it byte for byte', async () => {
    const messages = codingRun();
    const context = tierContext({ messages, protectedStart: 12 });
    applied(await microcompactTier().apply(messages, context));

    const record = (await context.store.getItem<ArchivedToolResult>('r1'))!;
    expect(record).toMatchObject({
      type: 'ctxkit.archived-tool-result',
      handle: 'r1',
      toolCallId: 'call_a1',
      toolName: 'read_file',
      arguments: '{"path":"src/app.ts"}',
      tokens: 3_333,
    });
    const restore = createRestoreHandler(context.store);
    expect(await restore({ handle: 'r1' })).toBe(messages[3]!.content);
    expect(await restore('{"handle":"r2"}')).toBe(messages[5]!.content);
  });

  it('reports what it did in the detail', async () => {
    const outcome = await microcompactTier({ stubDetail: false }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 }));
    expect(outcome).toMatchObject({ status: 'applied', detail: 'archived 2 tool results as stubs (2 new: r1–r2), freed 4,861 tokens' });
  });

  it('never touches the protected recent messages, whatever keepRecent says', async () => {
    const messages = codingRun();
    // Everything from index 6 on is protected; only the results at 3 and 5 may go.
    const output = applied(await microcompactTier({ keepRecent: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 6 })));
    expect(handlesOf(output)).toEqual(['r1', 'r2']);
    expect(output.slice(6)).toEqual(messages.slice(6));
  });

  it('keeps more recent results verbatim with a larger keepRecent', async () => {
    const output = applied(await microcompactTier({ keepRecent: 4 }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 })));
    expect(handlesOf(output)).toEqual(['r1']);
    expect(output[5]!.content).toMatch(/^FAIL src\/app\.test\.ts/);
  });

  it('leaves short results alone: a stub would not be worth a restore call', async () => {
    const messages = codingRun();
    const output = applied(await microcompactTier({ keepRecent: 0, minSavingsTokens: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 12 })));
    expect(handlesOf(output)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(output[11]).toBe(messages[11]); // "PORT=3000"
  });

  it('skips tools named in excludeTools', async () => {
    const output = applied(await microcompactTier({ keepRecent: 0, excludeTools: ['bash'] }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 })));
    expect(output[5]!.content).toMatch(/^FAIL/);
    expect(handlesOf(output)).toEqual(['r1', 'r2', 'r3']);
  });

  it('keeps the id and the host meta of a stubbed message, and names the id in replaces', async () => {
    const messages = codingRun();
    messages[7] = { ...(messages[7] as ToolMessage), meta: { host: { turn: 2 } } };
    const output = applied(await microcompactTier({ keepRecent: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 12 })));
    expect(output[7]).toMatchObject({ id: 'msg-7', meta: { host: { turn: 2 }, ctxkit: { kind: 'stub', replaces: ['msg-7'], handle: 'r3' } } });
  });

  it('does not mutate its input', async () => {
    const messages = codingRun();
    const before = JSON.stringify(messages);
    await microcompactTier({ keepRecent: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 12 }));
    expect(JSON.stringify(messages)).toBe(before);
  });
});

describe('minSavingsTokens', () => {
  it('skips with the reason, and archives nothing, when the saving is below the minimum', async () => {
    const store = memoryStore();
    const outcome = await microcompactTier({ minSavingsTokens: 10_000, stubDetail: false }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }));
    expect(outcome).toEqual({
      status: 'skipped',
      reason: 'archiving 2 tool results would free only 4,861 tokens, below minSavingsTokens (10,000); left unchanged to keep the prompt cache',
    });
    expect(await store.getItem('r1')).toBeNull();
    expect(await store.getItem('microcompact:next-handle')).toBeNull();
  });

  it('applies at exactly the minimum', async () => {
    const outcome = await microcompactTier({ minSavingsTokens: 4_861, stubDetail: false }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 }));
    expect(outcome.status).toBe('applied');
    const above = await microcompactTier({ minSavingsTokens: 4_862, stubDetail: false }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 }));
    expect(above.status).toBe('skipped');
  });

  it('skips when there is nothing old enough', async () => {
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 2 }));
    expect(outcome).toEqual({ status: 'skipped', reason: 'no tool results to archive: none before the protected recent messages (from index 2) other than the last 3' });
  });
});

describe('handles across compactions of a growing run', () => {
  it('never archives a stub again, and numbers new results after the old ones', async () => {
    const store = memoryStore();
    const tier = microcompactTier({ keepRecent: 1, minSavingsTokens: 0, stubDetail: false });
    const first = applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    expect(handlesOf(first)).toEqual(['r1', 'r2', 'r3', 'r4']);
    const firstRecords = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((handle) => store.getItem(handle)));

    // The run goes on: the agent's next round, built on the compacted transcript.
    const grown: Message[] = [
      ...first,
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_b1', name: 'read_file', arguments: '{"path":"src/server.ts"}' }] },
      { role: 'tool', toolCallId: 'call_b1', toolName: 'read_file', content: 'x'.repeat(8_000) },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_b2', name: 'bash', arguments: '{"command":"npm test"}' }] },
      { role: 'tool', toolCallId: 'call_b2', toolName: 'bash', content: 'ok '.repeat(3_000) },
      { role: 'assistant', content: 'Tests pass.' },
    ];
    const second = applied(await tier.apply(grown, tierContext({ messages: grown, protectedStart: grown.length - 1, store })));
    expect(handlesOf(second)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    for (const index of [3, 5, 7, 9]) expect(second[index]).toBe(first[index]);
    expect(second[14]!.content).toBe('[tool result 5 archived: read_file src/server.ts, 2,000 tokens; restore with restore_tool_result("r5")]');
    expect(await Promise.all(['r1', 'r2', 'r3', 'r4'].map((handle) => store.getItem(handle)))).toEqual(firstRecords);
  });

  it('gives the same stubs when the host prepares its full history again (stable prompt, no new archives)', async () => {
    const store = memoryStore();
    const tier = microcompactTier();
    const once = applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    const twice = applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
    expect(await store.getItem('r3')).toBeNull();
    expect((await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }))).status).toBe('applied');
  });

  it('never reuses a handle, even when the counter was lost', async () => {
    const store = memoryStore();
    const tier = microcompactTier({ minSavingsTokens: 0 });
    applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    await store.removeItem('microcompact:next-handle');
    const other = codingRun().map((message) => (message.role === 'tool' ? { ...message, content: `${String(message.content)} (second run)` } : message));
    const output = applied(await tier.apply(other, tierContext({ messages: other, protectedStart: 12, store })));
    expect(handlesOf(output)).toEqual(['r3', 'r4']);
    expect(await createRestoreHandler(store)('r1')).toBe(codingRun()[3]!.content);
    expect(await createRestoreHandler(store)('r3')).toBe(other[3]!.content);
  });

  it('keeps handles unique in a file store across a restart of the process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxkit-microcompact-'));
    const tier = microcompactTier();
    applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store: fileStore(dir) })));
    const later = codingRun().map((message) => (message.role === 'tool' ? { ...message, toolCallId: `${message.toolCallId}-b` } : message));
    for (const message of later) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) call.id = `${call.id}-b`;
    const output = applied(await tier.apply(later, tierContext({ messages: later, protectedStart: 12, store: fileStore(dir) })));
    expect(handlesOf(output)).toEqual(['r3', 'r4']);
    expect(await createRestoreHandler(fileStore(dir))('r1')).toBe(codingRun()[3]!.content);
  });

  it('does not re-archive a stub whose meta was lost on a round trip through a provider format', async () => {
    const store = memoryStore();
    const first = applied(await microcompactTier({ keepRecent: 0, minResultTokens: 0, minSavingsTokens: 0 }).apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    const roundTripped = first.map(({ meta: _meta, ...message }) => message as Message);
    const again = await microcompactTier({ keepRecent: 0, minResultTokens: 0, minSavingsTokens: 0 }).apply(roundTripped, tierContext({ messages: roundTripped, protectedStart: 12, store }));
    expect(again).toMatchObject({ status: 'skipped' });
  });

  it('points a restored result that grew old back at its first archive', async () => {
    const store = memoryStore();
    const tier = microcompactTier({ keepRecent: 1, minSavingsTokens: 0, stubDetail: false });
    const first = applied(await tier.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store })));
    const restored = await createRestoreHandler(store)({ handle: 'r1' });
    const grown: Message[] = [
      ...first,
      { role: 'assistant', content: 'I need app.ts again.', toolCalls: [{ id: 'call_c1', name: 'restore_tool_result', arguments: '{"handle":"r1"}' }] },
      { role: 'tool', toolCallId: 'call_c1', toolName: 'restore_tool_result', content: restored },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_c2', name: 'bash', arguments: '{"command":"git diff"}' }] },
      { role: 'tool', toolCallId: 'call_c2', toolName: 'bash', content: 'diff --git a/x b/x' },
      { role: 'assistant', content: 'Done.' },
    ];
    const second = applied(await tier.apply(grown, tierContext({ messages: grown, protectedStart: grown.length - 1, store })));
    expect(second[14]!.content).toBe('[tool result 1 archived: read_file src/app.ts, 3,333 tokens; restore with restore_tool_result("r1")]');
    expect(second[14]!.meta?.ctxkit?.handle).toBe('r1');
    expect(await store.getItem('r5')).toBeNull();
  });
});

describe('stub detail', () => {
  const output = (lines: string[]) => ['<returncode>0</returncode>', '<output>', ...lines, '</output>'].join('\n');
  const run = (content: string): Message[] => [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the loader.' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"grep -rn load_module src"}' }] },
    { role: 'tool', toolCallId: 'c1', content },
    { role: 'assistant', content: 'Done.' },
  ];

  it('keeps the first and last lines with content and the names in between, most frequent first, none twice', async () => {
    const body = [
      'src/loader.py:12: def load_module(name):',
      ...Array.from({ length: 60 }, (_, index) => `src/cache.py:${100 + index}:     return _CACHE_TABLE.get(key_${index % 3})`),
      'src/loader.py:88: raise ModuleNotFound(name)',
    ];
    const stubbed = applied(await microcompactTier({ keepRecent: 0, minSavingsTokens: 0 }).apply(run(output(body)), tierContext({ messages: run(output(body)), protectedStart: 4 })));
    const text = String(stubbed[3]!.content);
    expect(text.split('\n')[0]).toMatch(/^\[tool result 1 archived: bash grep -rn load_module src, [\d,]+ tokens; restore with restore_tool_result\("r1"\)\]$/);
    expect(text).toContain('head: src/loader.py:12: def load_module(name): ⏎ src/cache.py:100: return _CACHE_TABLE.get(key_0)');
    expect(text).toContain('tail: src/cache.py:159: return _CACHE_TABLE.get(key_2) ⏎ src/loader.py:88: raise ModuleNotFound(name)');
    const mentions = /mentions: (.*)/.exec(text)![1]!.split(', ');
    // key_1 is in 20 middle lines and in neither the head nor the tail; names those lines show are not repeated.
    expect(mentions[0]).toBe('key_1');
    expect(mentions).toContain('130');
    expect(mentions).not.toContain('_CACHE_TABLE.get');
    expect(mentions).not.toContain('src/cache.py');
    expect(text).not.toContain('<output>');
  });

  it('gives a small output a small digest, and a stub is never archived again once its meta is lost', async () => {
    const small = output(Array.from({ length: 12 }, (_, index) => `line ${index}: value_${index}`));
    const stubbed = applied(await microcompactTier({ keepRecent: 0, minSavingsTokens: 0, minResultTokens: 10 }).apply(run(small), tierContext({ messages: run(small), protectedStart: 4 })));
    const text = String(stubbed[3]!.content);
    const digest = text.slice(text.indexOf('\n') + 1);
    expect(digest.length).toBeLessThanOrEqual(Math.floor(small.length * 0.15) + 40);
    const lost = stubbed.map(({ meta: _meta, ...message }) => message as Message);
    const again = await microcompactTier({ keepRecent: 0, minSavingsTokens: 0, minResultTokens: 10 }).apply(lost, tierContext({ messages: lost, protectedStart: 4 }));
    expect(again.status).toBe('skipped');
  });
});

describe('archive', () => {
  const tokensOf = (messages: readonly Message[]) => tierContext({ protectedStart: 0 }).count(messages);

  it("archives the oldest results first, only enough to reach the target, with 'target' (the default)", async () => {
    const messages = codingRun();
    const target = tokensOf(messages) - 3_000;
    const output = applied(await microcompactTier({ keepRecent: 0, minSavingsTokens: 0 }).apply(messages, tierContext({ messages: messages, protectedStart: 12, targetTokens: target })));
    expect(handlesOf(output)).toEqual(['r1']);
    expect(output[5]).toBe(messages[5]);
    expect(tokensOf(output)).toBeLessThanOrEqual(target);
  });

  it("archives every old result with 'all', whatever the target", async () => {
    const messages = codingRun();
    const output = applied(
      await microcompactTier({ keepRecent: 0, minSavingsTokens: 0, archive: 'all' }).apply(messages, tierContext({ messages: messages, protectedStart: 12, targetTokens: tokensOf(messages) - 3_000 })),
    );
    expect(handlesOf(output)).toEqual(['r1', 'r2', 'r3', 'r4']);
  });

  it('rejects an unknown archive mode at creation', () => {
    expect(() => microcompactTier({ archive: 'some' as 'all' })).toThrow("microcompactTier option archive must be 'target' or 'all', got \"some\"");
  });
});

describe('trouble', () => {
  const failingStore = (failOn: 'getItem' | 'setItem'): StorePlugin => {
    const inner = memoryStore();
    return {
      ...inner,
      getItem: failOn === 'getItem' ? async () => Promise.reject(new Error('connection reset')) : inner.getItem,
      getItems: failOn === 'getItem' ? async () => Promise.reject(new Error('connection reset')) : inner.getItems!,
      setItem: failOn === 'setItem' ? async () => Promise.reject(new Error('disk full')) : inner.setItem,
      setItems: failOn === 'setItem' ? async () => Promise.reject(new Error('disk full')) : inner.setItems!,
    };
  };

  it('skips with the reason, leaving the transcript as it was, when the store cannot be written, naming the keys of the batch', async () => {
    const store = failingStore('setItem');
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }));
    expect(outcome).toEqual({
      status: 'skipped',
      reason: expect.stringMatching(
        /^could not archive to the store, transcript unchanged: \[ctxkit:tier-microcompact\] writing "r1", "r2", "microcompact:seen:[0-9a-f]+" and 2 more failed: disk full$/,
      ),
    });
    // Every reservation is released: nothing is left under the handles.
    expect(await store.getItem('r1')).toBeNull();
  });

  it('skips when a store without setItems cannot be written, naming the key', async () => {
    const { setItems: _left, ...store } = failingStore('setItem');
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }));
    expect(outcome).toEqual({
      status: 'skipped',
      reason: 'could not archive to the store, transcript unchanged: [ctxkit:tier-microcompact] writing "r1" failed: disk full',
    });
  });

  it('skips when the store cannot be read, naming the keys of the batch it read', async () => {
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store: failingStore('getItem') }));
    expect(outcome).toMatchObject({
      status: 'skipped',
      reason: expect.stringMatching(
        /^could not read the archive store, transcript unchanged: \[ctxkit:tier-microcompact\] reading "microcompact:next-handle", "microcompact:seen:[^"]+", "microcompact:seen:[^"]+" failed: connection reset$/,
      ),
    });
  });

  it('skips when a store without getItems cannot be read, naming the key', async () => {
    const { getItems: _left, ...store } = failingStore('getItem');
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }));
    expect(outcome).toMatchObject({
      status: 'skipped',
      reason: 'could not read the archive store, transcript unchanged: [ctxkit:tier-microcompact] reading "microcompact:next-handle" failed: connection reset',
    });
  });

  it('fails without writing when the run was aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const store = memoryStore();
    const outcome = await microcompactTier().apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store, signal: controller.signal }));
    expect(outcome).toMatchObject({ status: 'failed', reason: 'aborted before it started' });
    expect(await store.getItem('r1')).toBeNull();
  });

  it('rejects bad options at creation, naming the option', () => {
    expect(() => microcompactTier({ keepRecent: -1 })).toThrow('[ctxkit:tier-microcompact] microcompactTier option keepRecent must be an integer ≥ 0, got -1');
    expect(() => microcompactTier({ minSavingsTokens: Number.NaN })).toThrow(/minSavingsTokens must be an integer/);
    expect(() => microcompactTier({ excludeTools: 'bash' as unknown as string[] })).toThrow(/excludeTools must be an array/);
    expect(() => microcompactTier({ minResultTokens: 1.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('[ctxkit:tier-microcompact] microcompactTier option minResultTokens') }),
    );
  });

  it('uses a custom stub text, and fails when it leaves out the handle', async () => {
    const custom = microcompactTier({ stubText: (stub) => `[${stub.toolName} output archived as ${stub.handle}]` });
    const output = applied(await custom.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 })));
    expect(output[3]!.content).toBe('[read_file output archived as r1]');

    const broken = microcompactTier({ stubText: () => '[archived]' });
    const store = memoryStore();
    const outcome = await broken.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12, store }));
    expect(outcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('must return text that contains the handle ("r1")') });
    expect(await readArchivedToolResult(store, 'r1')).toBeUndefined();

    const throwing = microcompactTier({
      stubText: () => {
        throw new Error('template missing');
      },
    });
    expect(await throwing.apply(codingRun(), tierContext({ messages: codingRun(), protectedStart: 12 }))).toMatchObject({
      status: 'failed',
      reason: '[ctxkit:tier-microcompact] microcompactTier option stubText threw: template missing',
    });
  });
});

describe('microcompactTier: input that is not a transcript', () => {
  it('fails with a reason naming what is wrong instead of throwing a TypeError', async () => {
    const outcome = await microcompactTier().apply(null as unknown as Message[], tierContext({ protectedStart: 0, messages: [] }));
    expect(outcome).toEqual({ status: 'failed', reason: 'messages must be an array of messages, got null' });
  });
});
