// @ctxkit/ai-sdk README: ctxkitMiddleware on the model and restoreTool among the tools of a generateText
// tool loop. The model is the AI SDK's own MockLanguageModelV4 (no network), scripted to read one file per
// step in a 32K window, to restore the first result ctxkit archives, and then to answer. Each request it is
// sent must fit the window, start with the system prompt and keep every tool call with its result.
import { ctxkitMiddleware, restoreTool, restoreToolName } from '@ctxkit/ai-sdk';
import { tiktokenCounter } from '@ctxkit/tokens';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createCtxkit } from 'ctxkit';
import { assert, done } from './_support.mjs';

const window = 32_000;
const steps = 40;
const system = 'You are a coding agent. Read the files you need, one at a time, then answer.';
const fileText = (path) => `// ${path}\n${Array.from({ length: 160 }, (_, line) => `export const value${line} = ${JSON.stringify(path)}.length * ${line}; // line ${line}`).join('\n')}`;
const readFile = tool({
  description: 'Read a file',
  inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  execute: async ({ path }) => fileText(path),
});

// What a provider would bill: every message's text (or its parts as JSON), plus 4 per message.
const counter = tiktokenCounter('o200k_base');
await counter.load();
const promptTokens = (prompt) => prompt.reduce((sum, message) => sum + 4 + counter.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content)), 0);
const unpaired = (prompt) => {
  const results = new Set(prompt.filter((message) => message.role === 'tool').flatMap((message) => message.content.map((part) => part.toolCallId)));
  const calls = new Set(
    prompt
      .filter((message) => message.role === 'assistant' && Array.isArray(message.content))
      .flatMap((message) => message.content.filter((part) => part.type === 'tool-call').map((part) => part.toolCallId)),
  );
  return [...[...calls].filter((id) => !results.has(id)), ...[...results].filter((id) => !calls.has(id))];
};
const resultText = (prompt, id) => {
  for (const message of prompt) if (message.role === 'tool') for (const part of message.content) if (part.toolCallId === id && part.output.type === 'text') return part.output.value;
  return undefined;
};

const seen = [];
let handle;
let restored;
let reads = 0;
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => {
    const tokens = promptTokens(prompt);
    seen.push({ tokens, systemFirst: prompt[0]?.role === 'system' && prompt[0].content === system, unpaired: unpaired(prompt) });
    if (handle === undefined) handle = JSON.stringify(prompt).match(/restore_tool_result\(\\"(r\d+)\\"\)/)?.[1];
    else if (restored === undefined) restored = resultText(prompt, 'restore');
    const usage = { inputTokens: { total: tokens, noCache: tokens, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } };
    const call = (toolCallId, toolName, input) => ({
      content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    });
    if (handle !== undefined && restored === undefined) return call('restore', restoreToolName, { handle });
    if (seen.length >= steps) return { content: [{ type: 'text', text: 'All files read; the port is set in src/env.ts.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    reads += 1;
    return call(`call_${reads}`, 'read_file', { path: `src/module-${reads}.ts` });
  },
});

// ── The README's part: a manager per conversation, the middleware on the model, the restore tool. ──
let compactions = 0;
const manager = createCtxkit({
  model: 'mock-provider:mock-model-id',
  contextWindow: window,
  maxOutputTokens: 1_024,
  editedFiles: false,
  onEvent: (event) => event.type === 'compaction-end' && compactions++,
});
const { text, steps: taken } = await generateText({
  model: wrapLanguageModel({ model, middleware: ctxkitMiddleware({ manager }) }),
  system,
  prompt: 'The port is configured somewhere under src/; find it.',
  tools: { read_file: readFile, [restoreToolName]: restoreTool(manager) },
  stopWhen: stepCountIs(steps + 5),
});

assert.equal(text, 'All files read; the port is set in src/env.ts.');
assert.equal(taken.length, steps);
assert.ok(compactions > 0, 'ctxkit never compacted');
const largest = Math.max(...seen.map((request) => request.tokens));
assert.ok(largest <= window, `a request of ${largest} tokens went over the ${window}-token window`);
assert.ok(
  seen.every((request) => request.systemFirst),
  'a request did not start with the system prompt',
);
assert.deepEqual(
  seen.flatMap((request) => request.unpaired),
  [],
);
assert.equal(handle, 'r1');
assert.equal(restored, fileText('src/module-1.ts'), 'restore_tool_result did not give back the archived result byte for byte');
const unmanaged = promptTokens([{ role: 'system', content: system }, ...Array.from({ length: reads }, (_, index) => ({ role: 'tool', content: fileText(`src/module-${index + 1}.ts`) }))]);
assert.ok(unmanaged > 3 * window, `the run should be far over the window without ctxkit (${unmanaged} tokens)`);
done(`${taken.length} steps in a ${window}-token window: ${compactions} compactions, largest request ${largest} tokens (unmanaged ${unmanaged}); restored ${handle} (${restored.length} chars)`);
