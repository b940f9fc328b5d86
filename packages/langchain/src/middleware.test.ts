import { CtxkitError, type ErrorClassification } from '@ctxkit/core';
import { closeTestServers, type RecordedRequest, sendJson, startTestServer, type TestServer } from '@ctxkit/testkit';
import { HumanMessage } from '@langchain/core/messages';
import { type StructuredToolInterface, tool } from '@langchain/core/tools';
import { createCtxkit } from 'ctxkit';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, ScriptedChatModel, systemPrompt } from './__fixtures__/scripted-chat-model.ts';
import { ctxkitMiddleware } from './middleware.ts';
import { restoreTool } from './restore-tool.ts';

const window = 16_000;
const steps = 110;
const newManager = () => createCtxkit({ model: 'scripted:scripted-model', contextWindow: window, maxOutputTokens: 1_024, editedFiles: false });

describe('ctxkitMiddleware in a real createAgent loop', () => {
  it(`${steps} steps in a ${window}-token window never send a request over it, keep the system prompt and every pair, and finish`, async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps });
    const agent = createAgent({ model, tools: [readFile, restoreTool(manager)], systemPrompt, middleware: [ctxkitMiddleware({ manager })] });
    const result = await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 1_000 });
    expect(String(result.messages.at(-1)?.content)).toContain('src/env.ts');
    expect(model.observations).toHaveLength(steps);
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(model.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(model.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
    // The agent's state keeps the whole history: only what the model is sent is compacted.
    expect(result.messages.length).toBe(1 + 2 * (steps - 1) + 1);
  });

  it('agent.stream: a streamed 60-step run keeps the same guarantees', async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps: 60 });
    const agent = createAgent({ model, tools: [readFile, restoreTool(manager)], systemPrompt, middleware: [ctxkitMiddleware({ manager })] });
    let updates = 0;
    for await (const _chunk of await agent.stream({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 1_000, streamMode: 'updates' })) updates += 1;
    expect(updates).toBeGreaterThanOrEqual(2 * 59);
    expect(model.observations).toHaveLength(60);
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeLessThanOrEqual(window);
    expect(model.observations.every((seen) => seen.systemFirst)).toBe(true);
    expect(model.observations.flatMap((seen) => seen.unpaired)).toEqual([]);
  });

  it('without the middleware the same loop goes over the window (the test can fail)', async () => {
    const model = new ScriptedChatModel({ steps: 20 });
    const agent = createAgent({ model, tools: [readFile], systemPrompt });
    await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] }, { recursionLimit: 100 });
    expect(Math.max(...model.observations.map((seen) => seen.tokens))).toBeGreaterThan(window);
  });

  it('records usage_metadata, so the next prepare measures from the provider figure; model defaults to llmType:model', async () => {
    const manager = newManager();
    const reports: { source: string; model: string }[] = [];
    const agent = createAgent({
      model: new ScriptedChatModel({ steps: 3 }),
      tools: [readFile],
      systemPrompt,
      middleware: [ctxkitMiddleware({ manager, onPrepare: (report) => reports.push({ source: report.measurement.source, model: report.model }) })],
    });
    await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
    expect(reports.map((report) => report.model)).toEqual(['scripted:scripted-model', 'scripted:scripted-model', 'scripted:scripted-model']);
    expect(reports[0]!.source).not.toBe('reported');
    expect(reports.slice(1).map((report) => report.source)).toEqual(['reported', 'reported']);
  });

  it('counts the tools the agent sends in the fixed floor, as their JSON Schema', async () => {
    // A tool whose definition alone is about 2,000 tokens: a floor that leaves it out would compact too late.
    const manual = tool(async () => 'ok', {
      name: 'lookup_manual',
      description: Array.from({ length: 400 }, (_, line) => `Section ${line} explains option opt${line}.`).join(' '),
      schema: z.object({ section: z.number().describe('Section number') }),
    });
    const firstFloor = async (tools: StructuredToolInterface[]) => {
      const floors: number[] = [];
      const agent = createAgent({
        model: new ScriptedChatModel({ steps: 2 }),
        tools,
        systemPrompt,
        middleware: [ctxkitMiddleware({ manager: newManager(), onPrepare: (report) => floors.push(report.measurement.floor) })],
      });
      await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
      return floors[0]!;
    };
    const withManual = await firstFloor([readFile, manual]);
    const without = await firstFloor([readFile]);
    expect(withManual - without).toBeGreaterThan(2_000);
  });

  it('an overflow error is recovered once: the call is retried with the compacted messages', async () => {
    const manager = newManager();
    const model = new ScriptedChatModel({ steps: 6, failAt: 4 });
    const decisions: string[] = [];
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt,
      middleware: [ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'context_overflow', fallback: false, limitTokens: 6_000 }), onPrepare: (report) => decisions.push(report.decision) })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Find where the port is configured.')] });
    expect(String(result.messages.at(-1)?.content)).toContain('src/env.ts');
    expect(decisions).toContain('forced');
    expect(Math.max(...model.observations.slice(3).map((seen) => seen.tokens))).toBeLessThanOrEqual(6_000);
  });

  it('an error that is not an overflow is rethrown', async () => {
    const manager = newManager();
    const agent = createAgent({
      model: new ScriptedChatModel({ steps: 2, failAt: 1, failure: new Error('invalid api key') }),
      tools: [readFile],
      middleware: [ctxkitMiddleware({ manager, classifyError: () => ({ kind: 'other', fallback: false }) })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('hi')] })).rejects.toThrow('invalid api key');
  });

  it('rejects a missing manager with a typed error', () => {
    expect(() => ctxkitMiddleware({} as never)).toThrow(CtxkitError);
    expect(() => ctxkitMiddleware({} as never)).toThrow('[ctxkit:langchain] ctxkitMiddleware needs { manager }');
  });
});

describe('ctxkitMiddleware: an overflow the requested output causes (decision 0099)', () => {
  afterEach(closeTestServers);
  // vLLM's OpenAI-compatible server: the whole window asked for as output, so input plus output is over it.
  const overflow = {
    error: {
      message:
        "This model's maximum context length is 32769 tokens. However, you requested 33132 tokens (364 in the messages, 32768 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  };
  const completion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'qwen3-32b',
    choices: [{ index: 0, message: { role: 'assistant', content: 'The port is set in src/env.ts.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 364, completion_tokens: 9, total_tokens: 373 },
  };
  // What classifyError of @ctxkit/provider-utils reads from that body (its own tests hold it to that).
  const outputLed: ErrorClassification = { kind: 'context_overflow', fallback: false, limitTokens: 32_769, reportedTokens: 33_132, inputTokens: 364, requestedOutputTokens: 32_768 };
  // ChatOpenAI throws LangChain's ContextOverflowError with the SDK's 400 as its cause.
  const classifyError = (error: unknown): ErrorClassification => ((error as { cause?: { status?: unknown } }).cause?.status === 400 ? outputLed : { kind: 'other', fallback: false });

  // A server that answers the first chat completion with the overflow and every later one with the answer.
  const overflowOnce = (): Promise<TestServer> => {
    let calls = 0;
    return startTestServer({
      'POST /v1/chat/completions': (_request, response) => {
        calls += 1;
        if (calls === 1) sendJson(response, 400, overflow);
        else sendJson(response, 200, completion);
      },
    });
  };
  const chatModel = (baseURL: string, maxTokens: number) => new ChatOpenAI({ model: 'qwen3-32b', apiKey: 'test-key', maxTokens, maxRetries: 0, configuration: { baseURL } });
  const maxTokensSent = (requests: readonly RecordedRequest[]) => requests.map((request) => (request.json as { max_tokens?: number }).max_tokens);
  const newVllmManager = () => createCtxkit({ model: 'vllm:qwen3-32b', contextWindow: 128_000, maxOutputTokens: 32_768, editedFiles: false });

  it('retries once through a real ChatOpenAI with the lowered max_tokens (the window less the input), and the agent finishes', async () => {
    const server = await overflowOnce();
    const baseURL = `${server.url}/v1`;
    const agent = createAgent({
      model: chatModel(baseURL, 32_768),
      tools: [],
      middleware: [ctxkitMiddleware({ manager: newVllmManager(), model: 'vllm:qwen3-32b', classifyError, modelWithOutputLimit: (maxTokens) => chatModel(baseURL, maxTokens) })],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Where is the port configured?')] });
    expect(String(result.messages.at(-1)?.content)).toBe('The port is set in src/env.ts.');
    expect(maxTokensSent(server.requestsTo('/v1/chat/completions'))).toEqual([32_768, 32_405]);
  });

  it('without modelWithOutputLimit, rethrows the provider error after one request', async () => {
    const server = await overflowOnce();
    const agent = createAgent({
      model: chatModel(`${server.url}/v1`, 32_768),
      tools: [],
      middleware: [ctxkitMiddleware({ manager: newVllmManager(), model: 'vllm:qwen3-32b', classifyError })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('Where is the port configured?')] })).rejects.toThrow('maximum context length is 32769 tokens');
    expect(server.requestsTo('/v1/chat/completions')).toHaveLength(1);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('no API key for the lowered model');
      },
      '[ctxkit:langchain] modelWithOutputLimit(32405) threw, so the call its output overflowed was not retried: no API key for the lowered model',
    ],
    [
      'returns a model id',
      () => 'openai:qwen3-32b',
      '[ctxkit:langchain] modelWithOutputLimit(32405) returned "openai:qwen3-32b", not a chat model: return the agent\'s chat model built with that output limit',
    ],
    ['returns options', (maxTokens: number) => ({ maxTokens }), '[ctxkit:langchain] modelWithOutputLimit(32405) returned an object without invoke (maxTokens), not a chat model'],
  ])('a modelWithOutputLimit that %s fails with an error naming it, after one request', async (_case, modelWithOutputLimit, message) => {
    const server = await overflowOnce();
    const agent = createAgent({
      model: chatModel(`${server.url}/v1`, 32_768),
      tools: [],
      middleware: [ctxkitMiddleware({ manager: newVllmManager(), model: 'vllm:qwen3-32b', classifyError, modelWithOutputLimit: modelWithOutputLimit as never })],
    });
    const failure = await agent.invoke({ messages: [new HumanMessage('Where is the port configured?')] }).catch((caught: unknown) => caught);
    // LangChain wraps a middleware's error in its MiddlewareError, ours the cause.
    expect((failure as Error).message).toContain(message);
    expect(CtxkitError.isInstance((failure as Error).cause, 'INVALID_ARGUMENT')).toBe(true);
    expect(server.requestsTo('/v1/chat/completions')).toHaveLength(1);
  });

  it('an overflow that repeats after the lowered retry is rethrown, with no further request', async () => {
    const server = await startTestServer({ 'POST /v1/chat/completions': (_request, response) => sendJson(response, 400, overflow) });
    const baseURL = `${server.url}/v1`;
    const agent = createAgent({
      model: chatModel(baseURL, 32_768),
      tools: [],
      middleware: [ctxkitMiddleware({ manager: newVllmManager(), model: 'vllm:qwen3-32b', classifyError, modelWithOutputLimit: (maxTokens) => chatModel(baseURL, maxTokens) })],
    });
    await expect(agent.invoke({ messages: [new HumanMessage('Where is the port configured?')] })).rejects.toThrow('maximum context length is 32769 tokens');
    expect(maxTokensSent(server.requestsTo('/v1/chat/completions'))).toEqual([32_768, 32_405]);
  });
});
