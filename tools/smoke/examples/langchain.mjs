// @ctxkit/langchain README: createAgent with ctxkitMiddleware and restoreTool. The chat model is a small
// tool-calling BaseChatModel (no network), as the package's own tests script it: it reads one file per call
// in a 32K window, restores the first result ctxkit archives, and then answers. Each request it is sent must
// fit the window, start with the system prompt and keep every tool call with its result.
import { ctxkitMiddleware, restoreTool } from '@ctxkit/langchain';
import { tiktokenCounter } from '@ctxkit/tokens';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createCtxkit } from 'ctxkit';
import { createAgent } from 'langchain';
import { assert, done } from './_support.mjs';

const window = 32_000;
const steps = 40;
const systemPrompt = 'You are a coding agent. Read the files you need, one at a time, then answer.';
const answer = 'All files read; the port is set in src/env.ts.';
const fileText = (path) => `// ${path}\n${Array.from({ length: 160 }, (_, line) => `export const value${line} = ${JSON.stringify(path)}.length * ${line}; // line ${line}`).join('\n')}`;
const readFile = tool(async ({ path }) => fileText(path), {
  name: 'read_file',
  description: 'Read a file',
  schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
});

// What a provider would bill: every message's text and tool calls, plus 4 per message.
const counter = tiktokenCounter('o200k_base');
await counter.load();
const requestTokens = (messages) =>
  messages.reduce(
    (sum, message) => sum + 4 + counter.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content)) + counter.count(JSON.stringify(message.tool_calls ?? [])),
    0,
  );
const unpaired = (messages) => {
  const results = new Set(messages.filter((message) => message.getType() === 'tool').map((message) => message.tool_call_id));
  const calls = new Set(messages.filter((message) => message.getType() === 'ai').flatMap((message) => (message.tool_calls ?? []).map((call) => call.id)));
  return [...[...calls].filter((id) => !results.has(id)), ...[...results].filter((id) => !calls.has(id))];
};

/** Reads src/module-N.ts one call at a time; once a stub appears, restores it; answers at the last step. */
class ScriptedChatModel extends BaseChatModel {
  seen = [];
  model = 'scripted-model';
  reads = 0;
  handle;
  restored;

  constructor() {
    super({});
  }

  _llmType() {
    return 'scripted';
  }

  // createAgent binds the tools; the script knows them already.
  bindTools() {
    return this;
  }

  async _generate(messages) {
    const tokens = requestTokens(messages);
    this.seen.push({ tokens, systemFirst: messages[0]?.getType() === 'system' && messages[0].text === systemPrompt, unpaired: unpaired(messages) });
    // A stub names its handle (`restore_tool_result("r1")`), in a tool result or in the note summarizing it.
    if (this.handle === undefined) this.handle = messages.map((message) => message.text.match(/restore_tool_result\("(r\d+)"\)/)?.[1]).find(Boolean);
    else if (this.restored === undefined) this.restored = messages.find((message) => message.getType() === 'tool' && message.tool_call_id === 'restore')?.content;
    const usage_metadata = { input_tokens: tokens, output_tokens: 20, total_tokens: tokens + 20 };
    const call = (id, name, args) => new AIMessage({ content: '', tool_calls: [{ id, name, args, type: 'tool_call' }], usage_metadata });
    let message;
    if (this.handle !== undefined && this.restored === undefined) message = call('restore', 'restore_tool_result', { handle: this.handle });
    else if (this.seen.length >= steps) message = new AIMessage({ content: answer, usage_metadata });
    else {
      this.reads += 1;
      message = call(`call_${this.reads}`, 'read_file', { path: `src/module-${this.reads}.ts` });
    }
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

// ── The README's part: a manager per conversation, the middleware, the restore tool. ──
let compactions = 0;
const manager = createCtxkit({
  model: 'scripted:scripted-model',
  contextWindow: window,
  maxOutputTokens: 1_024,
  editedFiles: false,
  onEvent: (event) => event.type === 'compaction-end' && compactions++,
});
const model = new ScriptedChatModel();
const agent = createAgent({ model, tools: [readFile, restoreTool(manager)], systemPrompt, middleware: [ctxkitMiddleware({ manager, model: 'scripted:scripted-model' })] });
const state = await agent.invoke({ messages: [{ role: 'user', content: 'The port is configured somewhere under src/; find it.' }] }, { recursionLimit: 1_000 });

assert.equal(state.messages.at(-1)?.content, answer);
assert.equal(model.seen.length, steps);
// The agent's state keeps the whole history (the question, a call and a result per step, the answer); only
// what the model is sent is compacted.
assert.equal(state.messages.length, 1 + 2 * (steps - 1) + 1);
assert.ok(compactions > 0, 'ctxkit never compacted');
const largest = Math.max(...model.seen.map((request) => request.tokens));
assert.ok(largest <= window, `a request of ${largest} tokens went over the ${window}-token window`);
assert.ok(
  model.seen.every((request) => request.systemFirst),
  'a request did not start with the system prompt',
);
assert.deepEqual(
  model.seen.flatMap((request) => request.unpaired),
  [],
);
assert.equal(model.handle, 'r1');
assert.equal(model.restored, fileText('src/module-1.ts'), 'restore_tool_result did not give back the archived result byte for byte');
const unmanaged = requestTokens(state.messages);
assert.ok(unmanaged > 3 * window, `the run should be far over the window without ctxkit (${unmanaged} tokens)`);
done(
  `${model.seen.length} steps in a ${window}-token window: ${compactions} compactions, largest request ${largest} tokens (unmanaged ${unmanaged}); restored ${model.handle} (${model.restored.length} chars)`,
);
