import { createTsupConfig } from '../../tools/tsup.preset.ts';

// Two entries: the runtime (`.`) and the measurements (`./bench`); shared code goes to a common chunk.
export default createTsupConfig({ entry: { index: 'src/index.ts', 'bench/index': 'src/bench/index.ts' }, splitting: true });
