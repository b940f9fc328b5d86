// What the AI SDK adapter costs per step: converting the prompt the SDK sends (the whole history) to ctxkit
// messages and back, and the middleware's whole transformParams (conversion + manager.prepare), each
// against one JSON.stringify of the same prompt (what sending it costs at the least). A synthetic coding
// run of N steps (a 2,500-token file read per step), prompts as generateText builds them (fresh objects
// every step), under the threshold so no compaction runs. Interleaved, garbage collected before each timed section, median of 11 rounds.
// Run: npx -y pnpm@12.4.2 bench middleware
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { createCtxkit } from 'ctxkit';
import { createConversionCache, fromLanguageModelPrompt, toLanguageModelPrompt } from '../src/convert.ts';
import { ctxkitMiddleware } from '../src/middleware.ts';
import { median } from '../../../tools/bench/measure.ts';

const file = (step: number) =>
  `// src/module-${step}.ts\n${Array.from({ length: 160 }, (_, line) => `export const value${line} = "src/module-${step}.ts".length * ${line}; // line ${line}`).join('\n')}`;
function promptAt(steps: number): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: [{ type: 'text', text: 'Find where the port is configured.' }] },
  ];
  for (let step = 1; step <= steps; step++) {
    prompt.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: 'read_file', input: { path: `src/module-${step}.ts` } }] });
    prompt.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: `call_${step}`, toolName: 'read_file', output: { type: 'text', value: file(step) } }] });
  }
  return prompt;
}
// generateText rebuilds the prompt every step: new objects, same content.
const rebuilt = (prompt: LanguageModelV4Prompt) => structuredClone(prompt);

// Collect garbage before each timed section, so one section does not pay for another's allocations.
const collect = () => (globalThis as { gc?: () => void }).gc?.();
const rows: string[] = [];
for (const steps of [20, 100, 200]) {
  const base = promptAt(steps);
  const next = promptAt(steps + 1);
  const baseline: number[] = [];
  const conversion: number[] = [];
  const middleware: number[] = [];
  for (let round = 0; round < 11; round++) {
    const prompt = rebuilt(next);
    collect();
    let started = performance.now();
    JSON.stringify(prompt);
    baseline.push(performance.now() - started);

    // The conversion with its cache warm from the step before: only the new messages are new.
    const cache = createConversionCache();
    fromLanguageModelPrompt(rebuilt(base), cache);
    const again = rebuilt(next);
    collect();
    started = performance.now();
    toLanguageModelPrompt(fromLanguageModelPrompt(again, cache));
    conversion.push(performance.now() - started);

    // The middleware's transformParams, after a step on the shorter history (anchor and caches warm).
    const manager = createCtxkit({ model: 'mock:model', contextWindow: 10_000_000, maxOutputTokens: 4_096, editedFiles: false });
    await manager.meter.ready();
    const transform = ctxkitMiddleware({ manager }).transformParams!;
    const model = { provider: 'mock', modelId: 'model' } as never;
    await transform({ type: 'generate', params: { prompt: rebuilt(base) }, model });
    const params = { prompt: rebuilt(next) };
    collect();
    started = performance.now();
    await transform({ type: 'generate', params, model });
    middleware.push(performance.now() - started);
  }
  const json = median(baseline);
  const converted = median(conversion);
  const whole = median(middleware);
  rows.push(`| ${steps + 1} | ${next.length} | ${json.toFixed(3)} | ${converted.toFixed(3)} | ${(converted / json).toFixed(2)}× | ${whole.toFixed(3)} | ${(whole / json).toFixed(2)}× |`);
}
console.log('| steps | messages | JSON.stringify of the prompt (ms, baseline) | prompt → ctxkit → prompt, cache warm (ms) | ratio | middleware transformParams, no compaction (ms) | ratio |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
