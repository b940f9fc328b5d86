// Held-out retrieval figures for docs/benchmarks.md and decision 0068: tool search on a benchmark none of
// its constants were chosen on (Gorilla APIBench, TorchHub split, vendored in corpus/tool-retrieval/).
// `npx tsx --conditions=@ctxkit/source bench/retrieval-heldout.ts [DATA.json] [--misses N]`
// DATA.json: { tools: [{ name, api_name, domain, functionality, description }], queries: [{ query, tools }] }.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { measureRetrieval, type RetrievalQuery } from '../src/bench/measure-retrieval.ts';
import { searchTerms } from '../src/search-terms.ts';
import { createToolSearch, type ToolSearch, toolSearchText } from '../src/tool-search.ts';

interface ApiTool {
  name: string;
  api_name: string;
  domain: string;
  functionality: string;
  description: string;
}

const root = join(import.meta.dirname, '..', '..', '..');
const args = process.argv.slice(2);
const missesAt = args.indexOf('--misses');
const showMisses = missesAt >= 0 ? Number(args[missesAt + 1]) : 0;
const file = args.find((arg, position) => !arg.startsWith('--') && position !== missesAt + 1) ?? join(root, 'corpus', 'tool-retrieval', 'apibench-torchhub.json');
const data = JSON.parse(readFileSync(file, 'utf8')) as { tools: ApiTool[]; queries: RetrievalQuery[] };

// An API doc as a tool definition: the model id as the name, the doc's own name as the title, and its
// domain, functionality and description, verbatim, as the description. No parameters (APIBench's are not schemas).
const tools = data.tools.map((tool) => ({
  name: tool.name,
  title: tool.api_name,
  description: `${tool.domain}. ${tool.functionality}. ${tool.description}`,
  inputSchema: { type: 'object' },
}));
const schemaTools = readdirSync(join(root, 'corpus', 'schemas'))
  .filter((name) => name.endsWith('.json'))
  .sort()
  .flatMap((name) => JSON.parse(readFileSync(join(root, 'corpus', 'schemas', name), 'utf8')) as unknown[]);
const metatool = (JSON.parse(readFileSync(join(root, 'corpus', 'tool-retrieval', 'metatool.json'), 'utf8')) as { tools: { name: string; description: string }[] }).tools.map((tool) => ({
  ...tool,
  inputSchema: { type: 'object' },
}));

/** Decision 0020's baseline: MiniSearch with its defaults (no stemming, no stop words) over name and description. */
function plainBm25(pool: readonly unknown[]): ToolSearch<unknown> {
  const index = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
  const names: string[] = [];
  pool.forEach((tool, id) => {
    const text = toolSearchText(tool)!;
    names.push(text.name);
    index.add({ id, name: `${text.name} ${text.title}`, description: text.description });
  });
  const rank = (query: string, options: { limit?: number } = {}) =>
    index
      .search(query)
      .slice(0, options.limit ?? 5)
      .map((result) => ({ tool: pool[result.id as number], name: names[result.id as number]!, index: result.id as number, score: result.score }));
  return { rank, search: (query, options) => rank(query, options).map((match) => match.tool) } as ToolSearch<unknown>;
}

// Several APIs share one description word for word (ResNet-18 … 152, VGG-11 … 19-bn, MEAL-V2 ×8): the
// request cannot tell them apart, so "top-5, any twin" also counts a tool whose description is the label's.
const twins = new Map<string, string[]>();
for (const tool of data.tools) twins.set(tool.description, [...(twins.get(tool.description) ?? []), tool.name]);
const byName = new Map(data.tools.map((tool) => [tool.name, tool]));
const twinQueries = data.queries.map((entry) => ({ query: entry.query, tools: entry.tools.flatMap((name) => twins.get(byName.get(name)!.description)!) }));

// 66 of the 94 APIs are interchangeable ImageNet image classifiers (ResNet, VGG, DenseNet, MEAL-V2 …) and
// about two thirds of the requests ask for "an API to classify images"; the label names one of them. The
// other 28 do a distinct task (listed here by hand from their docs). "top-5, any classifier" counts a
// classifier request as found when any of the 66 is in the first five: the search found a tool that does the job.
const distinctTask = new Set(
  'slow_r50 hybridnets yolop DPT_Large DPT_Hybrid MiDaS_small umxhq ntsnet silero_stt silero_tts silero_vad deeplabv3_resnet50 deeplabv3_resnet101 deeplabv3_mobilenet_v3_large yolov5s DCGAN PGAN unet nvidia_waveglow roberta.large fcn_resnet50 fcn_resnet101 slowfast_r50 x3d_s huggingface/pytorch-transformers pytorch/fairseq nvidia_ssd nvidia_tacotron2'.split(
    ' ',
  ),
);
const classifiers = data.tools.filter((tool) => !distinctTask.has(tool.name)).map((tool) => tool.name);
const taskQueries = data.queries.map((entry) => ({ query: entry.query, tools: distinctTask.has(entry.tools[0]!) ? entry.tools : classifiers }));
const distinctQueries = data.queries.filter((entry) => distinctTask.has(entry.tools[0]!));
const classifierShare = data.queries.filter((entry) => !distinctTask.has(entry.tools[0]!)).length;

const terms = (text: string) => new Set(searchTerms(text));
const noSharedWord = data.queries.filter((entry) => {
  const tool = tools.find((candidate) => candidate.name === entry.tools[0])!;
  const toolTerms = terms(`${tool.name} ${tool.title} ${tool.description}`);
  return ![...terms(entry.query)].some((term) => toolTerms.has(term));
}).length;

const pct = (value: number) => (value * 100).toFixed(1);
console.log(`${file}: ${data.tools.length} tools, ${data.queries.length} requests (single-tool), ${twins.size} distinct descriptions`);
console.log(`requests labelled with one of the ${classifiers.length} interchangeable image classifiers: ${classifierShare} (${pct(classifierShare / data.queries.length)}%)`);
console.log(`requests sharing no stemmed word with their tool's name, title and description: ${noSharedWord} (${pct(noSharedWord / data.queries.length)}%)`);
const pools = [
  [`as given (${tools.length})`, tools],
  [`+ schema corpus (${tools.length + schemaTools.length})`, [...tools, ...schemaTools]],
  [`+ schema corpus + MetaTool (${tools.length + schemaTools.length + metatool.length})`, [...tools, ...schemaTools, ...metatool]],
] as const;
const searches = [
  ['(a) MiniSearch defaults, name + description', plainBm25],
  ['(b) createToolSearch defaults', (pool: readonly unknown[]) => createToolSearch(pool)],
  ['(c) createToolSearch, name + description only', (pool: readonly unknown[]) => createToolSearch(pool, { boost: { parameters: 0 } })],
] as const;
for (const [label, pool] of pools) {
  for (const [kind, build] of searches) {
    const index = build(pool);
    const score = measureRetrieval(index, data.queries);
    const twin = measureRetrieval(index, twinQueries);
    const task = measureRetrieval(index, taskQueries);
    const distinct = measureRetrieval(index, distinctQueries);
    console.log(
      `${label}\t${kind}\ttop-1 ${pct(score.top1)}\ttop-5 ${pct(score.topK)}\tall-in-top-5 ${pct(score.allInTopK)}\ttop-5 any twin ${pct(twin.topK)}\ttop-5 any classifier ${pct(task.topK)}\tdistinct-task requests (${distinct.queries}) top-1 ${pct(distinct.top1)} top-5 ${pct(distinct.topK)}`,
    );
    if (showMisses > 0 && label.startsWith('as given') && kind.startsWith('(b)')) {
      for (const miss of score.misses.slice(0, showMisses)) console.log(`  MISS ${JSON.stringify(miss.query)} -> ${miss.expected.join(',')} | got ${miss.got.join(', ')}`);
    }
  }
}
