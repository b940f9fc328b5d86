import { createTsupConfig } from '../../tools/tsup.preset.ts';

export default createTsupConfig();
