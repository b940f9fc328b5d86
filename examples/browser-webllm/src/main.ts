import type { ManagerEvent } from '@ctxkit/engine';
import { checkWebgpu, type WebllmTierProgress } from '@ctxkit/tier-webllm';
import type { WorkerMessage } from './compaction-worker.ts';
import type { EngineChoice } from './run-compaction.ts';

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const format = (tokens: number) => tokens.toLocaleString('en-US');
const engine: EngineChoice = new URLSearchParams(location.search).get('engine') === 'double' ? 'double' : 'webllm';

const device = element('device');
const engineName = engine === 'double' ? 'the stand-in engine (no GPU needed)' : 'WebLLM';
device.textContent = `Engine: ${engineName}. Checking for WebGPU…`;
// The same check the tier runs, here only to tell the reader; the tier decides for itself in the worker.
checkWebgpu().then((check) => {
  device.textContent = check.available
    ? `Engine: ${engineName}. WebGPU is available${check.vendor ? ` (${check.vendor})` : ''}.`
    : `Engine: ${engineName}. WebGPU is not available here: ${check.reason}.`;
  if (!check.available) device.classList.add('unavailable');
});

const events = element<HTMLOListElement>('events');
const log = (text: string) => {
  const item = document.createElement('li');
  item.textContent = text;
  events.append(item);
  events.scrollTop = events.scrollHeight;
};
const progress = element<HTMLProgressElement>('progress');
const progressText = element('progress-text');
const showProgress = (text: string, fraction?: number) => {
  progressText.textContent = text;
  if (fraction === undefined) progress.removeAttribute('value');
  else progress.value = fraction;
};

const onEvent = (event: ManagerEvent | { type: 'webllm-progress'; progress: WebllmTierProgress }) => {
  switch (event.type) {
    case 'compaction-start':
      log(`compaction: ${format(event.tokens)} tokens over the ${format(event.threshold)} threshold, aiming at ${format(event.target)}`);
      break;
    case 'tier-start':
      showProgress(`${event.tier}: running`);
      break;
    case 'webllm-progress':
      showProgress(`webllm: ${event.progress.message}`, event.progress.fraction);
      if (event.progress.phase === 'summarize') log(`webllm: ${event.progress.message}`);
      break;
    case 'tier-end':
      log(`${event.tier}: ${event.report.status}${event.report.reason ? ` (${event.report.reason})` : ''}`);
      break;
    case 'compaction-end':
      showProgress(`done: ${format(event.before)} → ${format(event.after)} tokens`, 1);
      log(`compaction end: ${format(event.before)} → ${format(event.after)} tokens`);
      break;
    default:
      break;
  }
};

const worker = new Worker(new URL('./compaction-worker.ts', import.meta.url), { type: 'module' });
const status = element('status');
worker.addEventListener('message', (message: MessageEvent<WorkerMessage>) => {
  const data = message.data;
  if (data.type === 'event') onEvent(data.event as Parameters<typeof onEvent>[0]);
  if (data.type === 'error') {
    status.dataset.state = 'error';
    status.textContent = `error: ${data.message}`;
  }
  if (data.type !== 'done') return;
  const { report } = data.run;
  const body = element('tiers').querySelector('tbody')!;
  for (const tier of report.tiers) {
    const row = document.createElement('tr');
    row.className = tier.status;
    row.dataset.tier = tier.id;
    for (const [text, number] of [
      [tier.id, false],
      [tier.status, false],
      [format(tier.before), true],
      [format(tier.after), true],
      [tier.reason ?? '', false],
    ] as const) {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (number) cell.className = 'number';
      row.append(cell);
    }
    body.append(row);
  }
  status.dataset.state = 'done';
  status.dataset.after = String(report.after ?? report.measurement.total);
  status.dataset.target = String(report.target);
  status.textContent = `${report.compacted ? 'compacted' : 'not compacted'}: ${format(report.measurement.total)} → ${format(report.after ?? report.measurement.total)} tokens (threshold ${format(report.threshold)}, target ${format(report.target)}); ${data.run.messagesBefore} → ${data.run.messagesAfter} messages`;
  if (data.run.summary) {
    element('summary').textContent = data.run.summary;
    element('summary-box').hidden = false;
  }
});
worker.postMessage({ type: 'run', engine });
