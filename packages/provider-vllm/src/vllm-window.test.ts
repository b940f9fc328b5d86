import { fixtureReader } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { type VllmModelsResponse, vllmWindow } from './vllm-window.ts';

const { json: fixtureJson } = fixtureReader(import.meta.url);

const models = fixtureJson<VllmModelsResponse>('v1-models.json');

describe('vllmWindow', () => {
  it('is the max_model_len the model is served with', () => {
    expect(vllmWindow({ model: 'Qwen/Qwen2.5-Coder-32B-Instruct', models })).toBe(32_768);
  });

  it("gives a LoRA adapter its base model's window", () => {
    expect(vllmWindow({ model: 'sql-lora', models })).toBe(32_768);
  });

  it('knows nothing of a model the server does not serve: vLLM matches names exactly', () => {
    expect(vllmWindow({ model: 'qwen/qwen2.5-coder-32b-instruct', models })).toBeUndefined();
    expect(vllmWindow({ model: 'Qwen/Qwen3-8B', models: { data: null } })).toBeUndefined();
  });
});
