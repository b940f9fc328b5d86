// What a window lookup costs an agent step, against a real HTTP server on 127.0.0.1 answering as Ollama:
// the provider's contextWindow (known window, refreshed in the background) against the baseline of a
// blocking discovery (POST /api/show and GET /api/ps, awaited), interleaved, medians of rounds.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestJson } from '@ctxkit/provider-utils';
import { interleavedRounds, median } from '../../../tools/bench/measure.ts';
import { ollamaProvider } from '../src/index.ts';

const show = readFileSync(new URL('../src/__fixtures__/api-show-qwen3.json', import.meta.url), 'utf8');
const ps = readFileSync(new URL('../src/__fixtures__/api-ps-qwen3-loaded.json', import.meta.url), 'utf8');
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(request.url === '/api/ps' ? ps : show);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const model = 'qwen3:8b';
const ollama = ollamaProvider({ baseURL });
const first = await ollama.contextWindow(model);
if (first.contextWindow !== 16_384) throw new Error(`unexpected window ${JSON.stringify(first)}`);

const calls = 200;
const rounds = 9;
const blocking = () => Promise.all([requestJson(`${baseURL}/api/show`, { provider: 'bench', body: { model } }), requestJson(`${baseURL}/api/ps`, { provider: 'bench' })]);
const lookup = () => ollama.contextWindow(model);

// Alternating which goes first, so neither side always runs on a warmer machine.
const { baseline, measured } = await interleavedRounds({ baseline: blocking, measured: lookup }, { rounds, calls, order: 'rotate', warmUp: true });
const base = median(baseline);
const mine = median(measured);
console.log(`| per step (ms, median of ${rounds} interleaved rounds of ${calls} calls) | blocking discovery (baseline) | contextWindow, known window | ratio |`);
console.log('|---|---:|---:|---:|');
console.log(`| Ollama, qwen3:8b loaded | ${base.toFixed(3)} | ${mine.toFixed(3)} | ${(mine / base).toFixed(2)}× |`);
console.log(`\nGoal: a known window costs a step at most 0.2× a blocking discovery: ${mine / base <= 0.2 ? 'met' : 'not met'} (${(mine / base).toFixed(2)}×).`);
await new Promise<void>((resolve) => {
  server.closeAllConnections();
  server.close(() => resolve());
});
