import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { tiktokenCounter } from '@ctxkit/tokens';
import { jsonSchema, type Tool, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

export const systemPrompt = 'You are a coding agent. Read the files you need, one at a time, then answer.';
const counter = tiktokenCounter('o200k_base');

/** Tokens of a prompt as a provider would bill it, on the safe side: every message's JSON, plus 4 per message. */
export async function promptTokens(prompt: LanguageModelV4Prompt): Promise<number> {
  await counter.load();
  return prompt.reduce((sum, message) => sum + 4 + counter.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content)), 0);
}

/** What every call of the scripted model saw. */
export interface Observation {
  tokens: number;
  systemFirst: boolean;
  unpaired: string[];
  messages: number;
}

/** Tool calls without a result right after them, and results without a call before them. */
export function unpairedToolCalls(prompt: LanguageModelV4Prompt): string[] {
  const problems: string[] = [];
  prompt.forEach((message, index) => {
    if (message.role === 'assistant') {
      const calls = message.content.filter((part) => part.type === 'tool-call' && part.providerExecuted !== true).map((part) => (part as { toolCallId: string }).toolCallId);
      if (calls.length === 0 || index === prompt.length - 1) return;
      const answered = new Set<string>();
      for (let next = index + 1; next < prompt.length && prompt[next]!.role === 'tool'; next += 1) {
        for (const part of prompt[next]!.content as { type: string; toolCallId?: string }[]) if (part.type === 'tool-result') answered.add(part.toolCallId!);
      }
      for (const call of calls) if (!answered.has(call)) problems.push(`call ${call} at ${index} has no result`);
    }
    if (message.role === 'tool') {
      let owner = index - 1;
      while (owner >= 0 && prompt[owner]!.role === 'tool') owner -= 1;
      const calls = owner >= 0 && prompt[owner]!.role === 'assistant' ? (prompt[owner]!.content as { type: string; toolCallId?: string }[]).map((part) => part.toolCallId) : [];
      for (const part of message.content) if (part.type === 'tool-result' && !calls.includes(part.toolCallId)) problems.push(`result ${part.toolCallId} at ${index} follows no call`);
    }
  });
  return problems;
}

/**
 * A MockLanguageModelV4 that plays a coding agent: `steps - 1` read_file calls, then an answer. It reports
 * the prompt's token count as usage, as a provider would, and records what each call saw.
 */
export function scriptedAgent(options: { steps: number; failFirstCallAt?: number; failure?: Error }) {
  const observations: Observation[] = [];
  let calls = 0;
  let failed = false;
  const observe = async (params: LanguageModelV4CallOptions) => {
    calls += 1;
    if (options.failFirstCallAt === calls && !failed) {
      failed = true;
      throw options.failure ?? new Error('context_length_exceeded');
    }
    const tokens = await promptTokens(params.prompt);
    const first = params.prompt[0];
    observations.push({ tokens, systemFirst: first?.role === 'system' && first.content === systemPrompt, unpaired: unpairedToolCalls(params.prompt), messages: params.prompt.length });
    const done = observations.length >= options.steps;
    const usage = { inputTokens: { total: tokens, noCache: tokens, cacheRead: 0, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } };
    const id = `call_${observations.length}`;
    return { done, usage, id, input: JSON.stringify({ path: `src/module-${observations.length}.ts` }) };
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (params): Promise<LanguageModelV4GenerateResult> => {
      const step = await observe(params);
      return {
        content: step.done ? [{ type: 'text', text: 'All files read; the port is set in src/env.ts.' }] : [{ type: 'tool-call', toolCallId: step.id, toolName: 'read_file', input: step.input }],
        finishReason: { unified: step.done ? 'stop' : 'tool-calls', raw: undefined },
        usage: step.usage,
        warnings: [],
      };
    },
    doStream: async (params) => {
      const step = await observe(params);
      const parts: LanguageModelV4StreamPart[] = step.done
        ? [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't1' },
            { type: 'text-delta', id: 't1', delta: 'All files read; ' },
            { type: 'text-delta', id: 't1', delta: 'the port is set in src/env.ts.' },
            { type: 'text-end', id: 't1' },
            { type: 'finish', usage: step.usage, finishReason: { unified: 'stop', raw: undefined } },
          ]
        : [
            { type: 'stream-start', warnings: [] },
            { type: 'tool-call', toolCallId: step.id, toolName: 'read_file', input: step.input },
            { type: 'finish', usage: step.usage, finishReason: { unified: 'tool-calls', raw: undefined } },
          ];
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, observations };
}

/** The agent's own tool: about 2,500 tokens of file text per call. */
export const readFile: Tool<{ path: string }, string> = tool({
  description: 'Read a file',
  inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  execute: async ({ path }) => `// ${path}\n${Array.from({ length: 160 }, (_, line) => `export const value${line} = ${JSON.stringify(path)}.length * ${line}; // line ${line}`).join('\n')}`,
});
