// Prints when ctxkit compacts for common context windows and output budgets, under both policies.
// Run from the repository root: `npx -y pnpm@12.4.2 demo`.
import { budgetPolicy, compactionTarget, thresholdBreakdown } from '@ctxkit/threshold';

const cases: [label: string, window: number, maxOutput: number][] = [
  ['small local model', 4_096, 0],
  ['Llama 3 8B (Ollama)', 8_192, 0],
  ['32K local model', 32_000, 0],
  ['GPT-4o', 128_000, 16_384],
  ['Claude Sonnet', 200_000, 64_000],
  ['GPT-5 (272K, 128K out)', 272_000, 128_000],
  ['272K window, 256K out', 272_000, 256_000],
  ['Gemini 2.5 Pro', 1_048_576, 65_536],
  ['2M window', 2_000_000, 0],
];

const budget = budgetPolicy();
const rows = cases.map(([label, window, maxOutput]) => {
  const half = thresholdBreakdown(window, maxOutput);
  return [
    label,
    window.toLocaleString('en-US'),
    maxOutput ? maxOutput.toLocaleString('en-US') : '-',
    half.threshold.toLocaleString('en-US'),
    compactionTarget(half.threshold).toLocaleString('en-US'),
    budget.decide({ contextWindow: window, maxOutputTokens: maxOutput }).threshold.toLocaleString('en-US'),
    half.bound,
  ];
});
const header = ['model', 'window', 'max output', 'compact at', 'target', 'budget policy', 'decided by'];
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
console.log('When ctxkit compacts (half-window policy, the default; budget policy beside it)\n');
console.log(line(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const row of rows) console.log(line(row));
console.log('\nWhy, for the 272K window with a 256K output budget:');
console.log(`  ${thresholdBreakdown(272_000, 256_000).reason}`);
