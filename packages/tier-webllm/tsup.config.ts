import { createTsupConfig } from '../../tools/tsup.preset.ts';

// Two entries: the runtime, and the `./test` subpath with the engine double (kept out of the runtime).
export default createTsupConfig({ entry: ['src/index.ts', 'src/test.ts'] });
