import { tiktokenCounter } from '@ctxkit/tokens';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';

export const systemPrompt = 'You are a coding agent. Read the files you need, one at a time, then answer.';
const counter = tiktokenCounter('o200k_base');

/** What every call of the scripted model saw. */
export interface Observation {
  tokens: number;
  systemFirst: boolean;
  unpaired: string[];
}

function typeOf(message: BaseMessage): string {
  return message.getType();
}

/** Tool calls without a result right after them, and results without a call before them. */
export function unpairedToolCalls(messages: readonly BaseMessage[]): string[] {
  const problems: string[] = [];
  messages.forEach((message, index) => {
    if (typeOf(message) === 'ai') {
      const calls = ((message as AIMessage).tool_calls ?? []).map((call) => call.id!);
      if (calls.length === 0 || index === messages.length - 1) return;
      const answered = new Set<string>();
      for (let next = index + 1; next < messages.length && typeOf(messages[next]!) === 'tool'; next += 1) answered.add((messages[next] as unknown as { tool_call_id: string }).tool_call_id);
      for (const call of calls) if (!answered.has(call)) problems.push(`call ${call} at ${index} has no result`);
    }
    if (typeOf(message) === 'tool') {
      let owner = index - 1;
      while (owner >= 0 && typeOf(messages[owner]!) === 'tool') owner -= 1;
      const calls = owner >= 0 && typeOf(messages[owner]!) === 'ai' ? ((messages[owner] as AIMessage).tool_calls ?? []).map((call) => call.id) : [];
      const id = (message as unknown as { tool_call_id: string }).tool_call_id;
      if (!calls.includes(id)) problems.push(`result ${id} at ${index} follows no call`);
    }
  });
  return problems;
}

/**
 * A minimal tool-calling chat model: `steps - 1` read_file calls, then an answer. It reports the request's
 * token count in `usage_metadata`, as a provider would, and records what each call saw.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly observations: Observation[] = [];
  readonly model = 'scripted-model';
  private failed = false;

  constructor(private readonly script: { steps: number; failAt?: number; failure?: Error }) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  // createAgent binds the tools; the script knows its tools already.
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[], _options: this['ParsedCallOptions'], _runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    if (this.script.failAt === this.observations.length + 1 && !this.failed) {
      this.failed = true;
      throw this.script.failure ?? new Error('context_length_exceeded');
    }
    await counter.load();
    const tokens = messages.reduce(
      (sum, message) =>
        sum + 4 + counter.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content)) + counter.count(JSON.stringify((message as AIMessage).tool_calls ?? [])),
      0,
    );
    const first = messages[0];
    this.observations.push({ tokens, systemFirst: first !== undefined && typeOf(first) === 'system' && first.text === systemPrompt, unpaired: unpairedToolCalls(messages) });
    const step = this.observations.length;
    const usage_metadata = { input_tokens: tokens, output_tokens: 20, total_tokens: tokens + 20 };
    const message =
      step >= this.script.steps
        ? new AIMessage({ content: 'All files read; the port is set in src/env.ts.', usage_metadata } as never)
        : new AIMessage({ content: '', tool_calls: [{ id: `call_${step}`, name: 'read_file', args: { path: `src/module-${step}.ts` }, type: 'tool_call' }], usage_metadata } as never);
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

/** The agent's own tool: about 2,500 tokens of file text per call. */
export const readFile = tool(
  async ({ path }: { path: string }) => `// ${path}\n${Array.from({ length: 160 }, (_, line) => `export const value${line} = ${JSON.stringify(path)}.length * ${line}; // line ${line}`).join('\n')}`,
  { name: 'read_file', description: 'Read a file', schema: z.object({ path: z.string() }) },
);
