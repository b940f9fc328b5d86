import { createTsupConfig } from '../../tools/tsup.preset.ts';

export default createTsupConfig({ entry: ['src/index.ts', 'src/cli.ts'], platform: 'node' });
