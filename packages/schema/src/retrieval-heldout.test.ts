import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureRetrieval, type RetrievalQuery } from './bench/measure-retrieval.ts';
import { createToolSearch } from './tool-search.ts';

// Regression guard for decision 0068: tool search on a benchmark no constant was chosen on (Gorilla
// APIBench, TorchHub split). Read from the copy vendored in the repository, so a plain clone runs it.
const data = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'corpus', 'tool-retrieval', 'apibench-torchhub.json'), 'utf8')) as {
  license: string;
  commit: string;
  tools: { name: string; api_name: string; domain: string; functionality: string; description: string }[];
  queries: RetrievalQuery[];
};
const tools = data.tools.map((tool) => ({
  name: tool.name,
  title: tool.api_name,
  description: `${tool.domain}. ${tool.functionality}. ${tool.description}`,
  inputSchema: { type: 'object' },
}));

describe('tool search on the held-out APIBench TorchHub split', () => {
  it('is the whole split, each request labelled with one tool of the pool', () => {
    expect(data.license).toBe('Apache-2.0');
    expect(data.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(data.tools).toHaveLength(94);
    expect(data.queries).toHaveLength(186);
    const names = new Set(data.tools.map((tool) => tool.name));
    expect(names.size).toBe(94);
    for (const entry of data.queries) expect(entry.tools.every((name) => names.has(name))).toBe(true);
  });

  it('keeps its measured top-5 (33.9% of all requests, 71.2% of those whose tool does a distinct task)', () => {
    const score = measureRetrieval(createToolSearch(tools), data.queries);
    expect(score.topK).toBeGreaterThan(0.335);
    expect(score.top1).toBeGreaterThan(0.16);
    const distinct = new Set(
      'slow_r50 hybridnets yolop DPT_Large DPT_Hybrid MiDaS_small umxhq ntsnet silero_stt silero_tts silero_vad deeplabv3_resnet50 deeplabv3_resnet101 deeplabv3_mobilenet_v3_large yolov5s DCGAN PGAN unet nvidia_waveglow roberta.large fcn_resnet50 fcn_resnet101 slowfast_r50 x3d_s huggingface/pytorch-transformers pytorch/fairseq nvidia_ssd nvidia_tacotron2'.split(
        ' ',
      ),
    );
    const subset = data.queries.filter((entry) => distinct.has(entry.tools[0]!));
    expect(subset).toHaveLength(52);
    expect(measureRetrieval(createToolSearch(tools), subset).topK).toBeGreaterThan(0.7);
  });
});
