import { runProviderErrorCorpus } from '@ctxkit/testkit';
import { ollamaProvider } from './ollama-provider.ts';

const provider = ollamaProvider();

runProviderErrorCorpus({ name: 'ollamaProvider.classifyError', classify: (error) => provider.classifyError(error), own: /ollama/i });
