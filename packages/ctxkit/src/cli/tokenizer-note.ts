import type { TiktokenEncoding } from '@ctxkit/tokens';

/** What `measure` says about the tokenizer that counted: exact for the model, or an estimate for it. */
export interface TokenizerNote {
  /** The tiktoken encoding that counted. */
  encoding: TiktokenEncoding;
  /** True when the encoding is the model's own tokenizer (OpenAI models), so the counts are exact. */
  exact: boolean;
  /** The model family named by the model id, when it is not OpenAI's (`claude`, `gemini`, ...). */
  family: string | null;
  /** The header of the counted column: `exact`, or the encoding marked as an estimate. */
  column: string;
  /** One sentence for the report: which tokenizer counted and how far to trust it for this model. */
  says: string;
}

// OpenAI's own models count exactly with tiktoken (gpt-oss's o200k_harmony differs only in special tokens).
const openaiModel = /^(gpt-|chatgpt-|o\d(-|$)|text-embedding-|davinci|babbage|codex-)/;

// Families with a tokenizer of their own, named by the start of a model id.
const knownFamilies = [
  'claude',
  'gemini',
  'gemma',
  'llama',
  'codellama',
  'qwen',
  'deepseek',
  'mistral',
  'mixtral',
  'codestral',
  'ministral',
  'magistral',
  'devstral',
  'phi',
  'command',
  'grok',
  'kimi',
  'glm',
  'granite',
  'olmo',
  'smollm',
  'nemotron',
  'yi',
  'falcon',
  'internlm',
  'minimax',
];

// The model's own name in an id: `ollama:qwen3:8b` is qwen3, `openrouter/anthropic/claude-sonnet-4-5` is
// claude-sonnet-4-5, `llama3.1:8b` is llama3.1 (an Ollama tag, not a provider prefix).
const providerPrefix = /^(openai|anthropic|gemini|google|openrouter|ollama|lmstudio|vllm|llamacpp):/;
function modelName(model: string): string {
  const withoutProvider = model.toLowerCase().replace(providerPrefix, '');
  return (withoutProvider.split('/').pop() ?? withoutProvider).replace(/:.*$/, '');
}

/**
 * Says which tokenizer counted a transcript for a model: exact for OpenAI models, an estimate for
 * every other family (Claude, Gemini, Llama, Qwen, DeepSeek, ... each have their own tokenizer).
 * @example tokenizerNote('o200k_base', 'claude-sonnet-4-5').says
 * // 'counted with o200k_base (OpenAI's tokenizer): an estimate for claude-sonnet-4-5, the claude family has its own tokenizer'
 */
export function tokenizerNote(encoding: TiktokenEncoding, model: string | undefined): TokenizerNote {
  const id = model === undefined ? undefined : modelName(model);
  if (id === undefined) {
    return { encoding, exact: false, family: null, column: encoding, says: `counted with ${encoding}: exact for OpenAI models, an estimate for other families (pass --model)` };
  }
  if (openaiModel.test(id)) return { encoding, exact: true, family: null, column: 'exact', says: `counted with ${encoding}, the tokenizer of ${model}: exact` };
  const family = knownFamilies.find((name) => id.startsWith(name)) ?? null;
  return {
    encoding,
    exact: false,
    family,
    column: `${encoding} (estimate)`,
    says: `counted with ${encoding} (OpenAI's tokenizer): an estimate for ${model}, ${family ? `the ${family} family has its own tokenizer` : 'not an OpenAI model, so its tokenizer may count differently'}`,
  };
}
