import { runProviderErrorCorpus } from '@ctxkit/testkit';
import { vllmProvider } from './vllm-provider.ts';

const provider = vllmProvider();

runProviderErrorCorpus({ name: 'vllmProvider.classifyError', classify: (error) => provider.classifyError(error), own: /vllm/i });
