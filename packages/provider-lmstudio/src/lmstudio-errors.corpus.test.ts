import { runProviderErrorCorpus } from '@ctxkit/testkit';
import { lmstudioProvider } from './lmstudio-provider.ts';

const provider = lmstudioProvider();

runProviderErrorCorpus({ name: 'lmstudioProvider.classifyError', classify: (error) => provider.classifyError(error), own: /lmstudio/i });
