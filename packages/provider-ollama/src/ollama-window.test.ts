import { fixtureReader } from '@ctxkit/testkit';
import { describe, expect, it } from 'vitest';
import { modelfileParameter, normalizeOllamaModel, type OllamaPsResponse, type OllamaShowResponse, ollamaWindow, trainedContextLength } from './ollama-window.ts';

const { json: fixtureJson } = fixtureReader(import.meta.url);

const qwen3 = fixtureJson<OllamaShowResponse>('api-show-qwen3.json');
const agentLlama = fixtureJson<OllamaShowResponse>('api-show-llama-modelfile.json');
const tinyllama = fixtureJson<OllamaShowResponse>('api-show-tinyllama.json');
const loaded = fixtureJson<OllamaPsResponse>('api-ps-qwen3-loaded.json');
const nothingLoaded = fixtureJson<OllamaPsResponse>('api-ps-empty.json');

describe('ollamaWindow', () => {
  it('takes the context of the loaded model from /api/ps, which is what a request is served with', () => {
    expect(ollamaWindow({ model: 'qwen3:8b', show: qwen3, running: loaded, serverDefault: 4096 })).toEqual({
      contextWindow: 16_384,
      basis: 'loaded',
      trainedContextLength: 40_960,
    });
  });

  it('follows the num_ctx the caller requests, capped at the trained length as Ollama caps it', () => {
    expect(ollamaWindow({ model: 'qwen3:8b', show: qwen3, running: loaded, numCtx: 32_768, serverDefault: 4096 })).toMatchObject({ contextWindow: 32_768, basis: 'request' });
    expect(ollamaWindow({ model: 'qwen3:8b', show: qwen3, running: loaded, numCtx: 131_072, serverDefault: 4096 })).toMatchObject({ contextWindow: 40_960, basis: 'request' });
  });

  it('uses the Modelfile num_ctx and num_predict when the model is not loaded', () => {
    expect(ollamaWindow({ model: 'agent-llama', show: agentLlama, running: nothingLoaded, serverDefault: 4096 })).toEqual({
      contextWindow: 8192,
      maxOutputTokens: 2048,
      basis: 'modelfile',
      trainedContextLength: 131_072,
    });
  });

  it('assumes the server default when nothing sets num_ctx, never above the trained length', () => {
    expect(ollamaWindow({ model: 'qwen3:8b', show: qwen3, running: nothingLoaded, serverDefault: 4096 })).toMatchObject({ contextWindow: 4096, basis: 'server-default' });
    expect(ollamaWindow({ model: 'tinyllama', show: tinyllama, serverDefault: 4096 })).toMatchObject({ contextWindow: 2048, basis: 'server-default' });
  });

  it('matches the loaded model whatever the case and an implicit :latest tag', () => {
    const running: OllamaPsResponse = { models: [{ name: 'agent-llama:latest', model: 'agent-llama:latest', context_length: 12_288 }] };
    expect(ollamaWindow({ model: 'Agent-Llama', show: agentLlama, running, serverDefault: 4096 })?.contextWindow).toBe(12_288);
    // Another model being loaded says nothing about this one.
    expect(ollamaWindow({ model: 'qwen3:14b', show: qwen3, running: loaded, serverDefault: 4096 })?.basis).toBe('server-default');
  });

  it('serves a cloud model at its trained length', () => {
    const cloud: OllamaShowResponse = { model_info: { 'general.architecture': 'gptoss', 'gptoss.context_length': 131_072 }, remote_host: 'https://ollama.com:443', remote_model: 'gpt-oss:120b' };
    expect(ollamaWindow({ model: 'gpt-oss:120b-cloud', show: cloud, serverDefault: 4096 })).toMatchObject({ contextWindow: 131_072, basis: 'cloud' });
  });

  it('knows nothing when neither answer mentions the model', () => {
    expect(ollamaWindow({ model: 'qwen3:8b', running: nothingLoaded, serverDefault: 4096 })).toBeUndefined();
  });
});

describe('the pieces of /api/show', () => {
  it('reads the trained length under the architecture named by general.architecture, or any *.context_length', () => {
    expect(trainedContextLength(qwen3.model_info)).toBe(40_960);
    expect(trainedContextLength({ 'general.architecture': 'clip', 'llama.context_length': 4096 })).toBe(4096);
    expect(trainedContextLength(null)).toBeUndefined();
  });

  it('reads numbers from the parameters text, not from a longer name or a stop word', () => {
    expect(modelfileParameter(agentLlama.parameters, 'num_ctx')).toBe(8192);
    expect(modelfileParameter('num_ctx_extra   99\nstop "num_ctx 5"', 'num_ctx')).toBeUndefined();
  });

  it('normalizes names: an implicit :latest, case, a registry host with a port', () => {
    expect(normalizeOllamaModel('Qwen3')).toBe('qwen3:latest');
    expect(normalizeOllamaModel('hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M')).toBe('hf.co/unsloth/qwen3-8b-gguf:q4_k_m');
    expect(normalizeOllamaModel('localhost:5000/team/coder')).toBe('localhost:5000/team/coder:latest');
  });
});
