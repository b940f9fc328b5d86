// A scripted coding agent works through a long session against a 24K-token model, with ctxkit keeping
// every request inside the window. Nothing is sent anywhere: the "model" is a script, the tool results
// are generated files. Run from the repository root: `npx -y pnpm@12.4.2 example:agent-loop`.
import { type Message, memoryStore } from '@ctxkit/core';
import { createRestoreHandler, restoreToolResultTool } from '@ctxkit/tier-microcompact';
import { createCtxkit } from 'ctxkit';

const window = 24_000;
const store = memoryStore();
const restore = createRestoreHandler(store);
const manager = createCtxkit({
  model: 'scripted-model',
  contextWindow: window,
  maxOutputTokens: 2_048,
  store,
  editedFiles: false,
  onEvent: (event) => {
    if (event.type === 'compaction-start')
      console.log(`  ⤷ compaction: ${event.tokens.toLocaleString('en-US')} tokens > threshold ${event.threshold.toLocaleString('en-US')}, aiming at ${event.target.toLocaleString('en-US')}`);
    if (event.type === 'tier-end')
      console.log(
        `      ${event.tier.padEnd(12)} ${event.report.status.padEnd(8)} ${event.report.before.toLocaleString('en-US').padStart(7)} → ${event.report.after.toLocaleString('en-US').padStart(7)}${event.report.reason ? `  (${event.report.reason})` : ''}`,
      );
    if (event.type === 'reinjected') console.log(`      reinjected: ${event.blocks.map((block) => block.title).join(', ')}`);
  },
});

/** A source file of about `lines` lines, different for every name. */
const sourceFile = (name: string, lines: number) =>
  Array.from({ length: lines }, (_, line) => `export function ${name.replace(/\W/g, '_')}_${line}(value: number): number { return value * ${line} + ${name.length}; }`).join('\n');

await manager.meter.ready(); // loads the exact tokenizer (ranks) once, for the stand-in usage below

let history: Message[] = [
  { role: 'system', content: `You are a coding agent. Tools: read_file, bash, ${restoreToolResultTool.name}.` },
  { role: 'user', content: 'The pricing tests fail after the currency refactor. Find the cause in src/pricing and fix it.' },
];

for (let step = 1; step <= 40; step++) {
  const { messages, report } = await manager.prepare(history);
  history = [...messages];
  console.log(
    `step ${String(step).padStart(2)}: measured ${report.measurement.total.toLocaleString('en-US').padStart(6)} tokens (${report.measurement.source}) of a ${window.toLocaleString('en-US')} window${report.compacted ? `, sent ${report.after?.toLocaleString('en-US')} after compaction` : ''}`,
  );
  // The provider reports what it counted; here the manager's own exact count stands in for it.
  manager.record({ usage: { inputTokens: manager.meter.countMessages(history, { exact: true }) }, messageCount: history.length });

  // The scripted model: read a file, sometimes run the tests, and at step 30 ask for an archived result back.
  const id = `call_${step}`;
  const stub = history.find((message) => message.meta?.ctxkit?.handle !== undefined);
  if (step === 30 && stub?.meta?.ctxkit?.handle) {
    const handle = stub.meta.ctxkit.handle;
    history.push({ role: 'assistant', content: 'I need that earlier file again.', toolCalls: [{ id, name: restoreToolResultTool.name, arguments: JSON.stringify({ handle }) }] });
    const original = await restore({ handle });
    history.push({ role: 'tool', toolCallId: id, toolName: restoreToolResultTool.name, content: original });
    console.log(`  ⤷ the model restored ${handle}: ${original.length.toLocaleString('en-US')} characters, byte for byte`);
  } else if (step % 5 === 0) {
    history.push({ role: 'assistant', content: 'Running the tests.', toolCalls: [{ id, name: 'bash', arguments: JSON.stringify({ command: 'npm test -- pricing' }) }] });
    history.push({ role: 'tool', toolCallId: id, toolName: 'bash', content: `FAIL src/pricing/convert.test.ts\n  ✕ converts EUR to USD (${step} ms)\nError: expected 10.5 to be 10.50\nexit code 1` });
  } else {
    const path = `src/pricing/module${step}.ts`;
    history.push({ role: 'assistant', content: `Reading ${path}.`, toolCalls: [{ id, name: 'read_file', arguments: JSON.stringify({ path }) }] });
    history.push({ role: 'tool', toolCallId: id, toolName: 'read_file', content: sourceFile(path, 40 + (step % 7) * 10) });
  }
}
const state = manager.state();
console.log(`\n${state.attempts} compactions, ${state.successes} shrank the request, ${state.refills} refills; the breaker is ${state.open ? 'open' : 'closed'}.`);
