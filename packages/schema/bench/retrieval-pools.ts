// The retrieval pools (MetaTool 199, + schema corpus 468, APIBench 94 / 363 / 562, the stress pool of MetaTool +
// corpus + APIBench + this package's fixtures) and MetaTool's halves, for bench/retrieval-hubs.ts and decision 0101's scripts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RetrievalQuery } from '../src/bench/measure-retrieval.ts';
import { toolSearchText } from '../src/tool-search.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const jsonFiles = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => read(join(dir, file)));

export const meta = read(join(root, 'corpus', 'tool-retrieval', 'metatool.json')) as { tools: { name: string; description: string }[]; queries: RetrievalQuery[]; multiToolQueries: RetrievalQuery[] };
export const schemaTools = jsonFiles(join(root, 'corpus', 'schemas')).flat() as unknown[];
const textKey = (tool: unknown) => {
  const text = toolSearchText(tool);
  return text ? `${text.name}\n${text.description}` : undefined;
};
const seen = new Set(schemaTools.map(textKey));
export const fixtureTools = (jsonFiles(join(import.meta.dirname, '..', 'src', '__fixtures__')) as { tools: unknown[] }[])
  .flatMap((fixture) => fixture.tools)
  .filter((tool) => {
    const key = textKey(tool);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
export const api = read(join(root, 'corpus', 'tool-retrieval', 'apibench-torchhub.json')) as {
  tools: { name: string; api_name: string; domain: string; functionality: string; description: string }[];
  queries: RetrievalQuery[];
};
export const apiTools: unknown[] = api.tools.map((tool) => ({
  name: tool.name,
  title: tool.api_name,
  description: `${tool.domain}. ${tool.functionality}. ${tool.description}`,
  inputSchema: { type: 'object' },
}));
export const metaTools: unknown[] = meta.tools.map((tool) => ({ ...tool, inputSchema: { type: 'object' } }));
export const corpusPool: unknown[] = [...metaTools, ...schemaTools];
export const stressPool: unknown[] = [...metaTools, ...schemaTools, ...apiTools, ...fixtureTools];

const distinctTask = new Set(
  'slow_r50 hybridnets yolop DPT_Large DPT_Hybrid MiDaS_small umxhq ntsnet silero_stt silero_tts silero_vad deeplabv3_resnet50 deeplabv3_resnet101 deeplabv3_mobilenet_v3_large yolov5s DCGAN PGAN unet nvidia_waveglow roberta.large fcn_resnet50 fcn_resnet101 slowfast_r50 x3d_s huggingface/pytorch-transformers pytorch/fairseq nvidia_ssd nvidia_tacotron2'.split(
    ' ',
  ),
);
export const distinctQueries = api.queries.filter((query) => distinctTask.has(query.tools[0]!));

const toolPosition = new Map(meta.tools.map((tool, position) => [tool.name, position]));
/** MetaTool's requests of one half (decision 0020's split): tune = even-numbered tools and multi-tool requests. */
export function metaHalf(half: string): { single: RetrievalQuery[]; multi: RetrievalQuery[] } {
  const inHalf = (even: boolean) => half === 'all' || even === (half === 'tune');
  return {
    single: meta.queries.filter((query) => inHalf(toolPosition.get(query.tools[0]!)! % 2 === 0)),
    multi: meta.multiToolQueries.filter((_query, position) => inHalf(position % 2 === 0)),
  };
}
