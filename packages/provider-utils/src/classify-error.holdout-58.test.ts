import fiftyEighthSet from './__fixtures__/provider-errors-holdout-58.json' with { type: 'json' };
import { describeHeldOutSet, familiesExcept, type HeldOutEntry } from './__fixtures__/provider-error-entry.ts';

const entries = fiftyEighthSet as HeldOutEntry[];

describeHeldOutSet(entries, {
  title: 'classifyError on the fifty-eighth held-out set (issue 14: OpenAI-compatible services from China and Asia and the gateways in front of them, measured untouched)',
  minEntries: 35,
  minReal: 13,
  minTests: 22,
  // Decision 0064, "A fifty-eighth set": Zhipu GLM / Z.AI business codes (1261, 1113, 1302, 1305, 1308, 1301), SiliconFlow's
  // 20015, MiniMax's base_resp 2013, Volcengine Ark, Baidu Qianfan, Tencent Hunyuan, iFlytek Spark, DashScope, Moonshot,
  // New-API relays, SenseNova, Hugging Face's router, Cloudflare Workers AI and a relay over TGI. The other families the
  // issue names were not this set's ground.
  families: familiesExcept('cerebras', 'bedrock', 'vertex', 'deepseek', 'mistral', 'groq', 'xai', 'together', 'litellm', 'llama.cpp', 'azure', 'openrouter', 'ollama', 'vllm', 'lm studio'),
  untouched: '34 of 35: real 13 of 13, tests 21 of 22, token figures 3 of 3',
  untouchedWrong: 1,
});
