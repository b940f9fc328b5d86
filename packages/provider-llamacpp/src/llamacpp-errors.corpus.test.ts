import { runProviderErrorCorpus } from '@ctxkit/testkit';
import { llamacppProvider } from './llamacpp-provider.ts';

const provider = llamacppProvider();

runProviderErrorCorpus({ name: 'llamacppProvider.classifyError', classify: (error) => provider.classifyError(error), own: /llama/i });
