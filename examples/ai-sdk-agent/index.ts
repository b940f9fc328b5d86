// An AI SDK agent with ctxkit: `generateText` runs a 120-step tool loop against a 16K-token window, and
// ctxkit's middleware keeps every request inside it. With no configuration nothing leaves the machine: the
// model is the AI SDK's own MockLanguageModelV4, scripted to read one file per step. Point it at a local
// OpenAI-compatible server (Ollama, LM Studio, vLLM, llama.cpp) with
//   CTXKIT_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CTXKIT_MODEL=qwen3:8b CTXKIT_CONTEXT_WINDOW=16000
// Run from the repository root: `npx -y pnpm@12.4.2 example:ai-sdk-agent`.
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ctxkitMiddleware, restoreTool } from '@ctxkit/ai-sdk';
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createCtxkit } from 'ctxkit';

const window = Number(process.env.CTXKIT_CONTEXT_WINDOW ?? 16_000);
const steps = 120;
const system = 'You are a coding agent. Read the files under src/ one at a time with read_file, then say where the port is configured.';

// The scripted model: reads src/module-1.ts … src/module-119.ts, then answers. It checks what it is sent,
// as a provider would reject it: over the window, or without the system prompt first.
const sent: { characters: number; systemFirst: boolean }[] = [];
// The characters a provider would tokenize: texts, tool inputs and outputs (not the JSON around them).
const characters = (value: unknown): number =>
  typeof value === 'string'
    ? value.length
    : Array.isArray(value)
      ? value.reduce((sum: number, item) => sum + characters(item), 0)
      : value && typeof value === 'object'
        ? Object.entries(value).reduce((sum, [key, item]) => sum + (key === 'type' || key === 'role' || key === 'toolCallId' ? 0 : characters(item)), 0)
        : 0;
function scriptedModel(): LanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> => {
      const size = characters(prompt);
      sent.push({ characters: size, systemFirst: prompt[0]?.role === 'system' && prompt[0].content === system });
      const step = sent.length;
      const usage = { inputTokens: { total: Math.ceil(size / 3.5), noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } };
      if (step >= steps) return { content: [{ type: 'text', text: 'The port is configured in src/env.ts.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: 'read_file', input: JSON.stringify({ path: `src/module-${step}.ts` }) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

const baseURL = process.env.CTXKIT_OPENAI_BASE_URL;
const model = baseURL ? createOpenAICompatible({ name: 'local', baseURL }).chatModel(process.env.CTXKIT_MODEL ?? 'qwen3:8b') : scriptedModel();

// ── The ctxkit part: a manager, the middleware, the restore tool. ──
const manager = createCtxkit({ model: `${model.provider}:${model.modelId}`, contextWindow: window, maxOutputTokens: 1_024, editedFiles: false });
const compactions: string[] = [];
const wrapped = wrapLanguageModel({
  model,
  middleware: ctxkitMiddleware({
    manager,
    onPrepare: (report) => {
      if (report.compacted) compactions.push(`${report.measurement.total.toLocaleString('en-US')} → ${report.after?.toLocaleString('en-US')} tokens`);
    },
  }),
});

const readFile = tool({
  description: 'Read a file',
  inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
  execute: async ({ path }) => `// ${path}\n${Array.from({ length: 60 }, (_, line) => `export const value${line} = ${JSON.stringify(path)}.length * ${line};`).join('\n')}`,
});

const result = await generateText({
  model: wrapped,
  system,
  prompt: 'Where is the port configured?',
  tools: { read_file: readFile, restore_tool_result: restoreTool(manager) },
  stopWhen: stepCountIs(steps + 10),
  onStepEnd: (step) =>
    console.log(
      `step ${String(step.stepNumber + 1).padStart(3)}: input ${String(step.usage.inputTokens ?? '?').padStart(6)} tokens${step.toolCalls.length > 0 ? `, called ${step.toolCalls.map((call) => call.toolName).join(', ')}` : ''}`,
    ),
});

console.log(`\n${result.steps.length} steps, ${compactions.length} compactions (${compactions.slice(0, 3).join('; ')}${compactions.length > 3 ? '; …' : ''})`);
console.log(`answer: ${result.text}`);
if (!baseURL) {
  const largest = Math.max(...sent.map((request) => request.characters));
  console.log(`largest request: ${largest.toLocaleString('en-US')} characters (about ${Math.ceil(largest / 3.5).toLocaleString('en-US')} tokens) of a ${window.toLocaleString('en-US')}-token window`);
  // The example doubles as a test (`pnpm test` runs it): fail loudly if ctxkit did not do its job.
  if (result.steps.length !== steps || compactions.length === 0 || sent.some((request) => !request.systemFirst) || largest / 3.5 > window) {
    console.error('ctxkit did not keep the run inside the window with the system prompt first');
    process.exit(1);
  }
}
