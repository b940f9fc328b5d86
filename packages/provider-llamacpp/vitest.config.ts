import { createVitestConfig } from '../../tools/vitest.preset.ts';

export default createVitestConfig();
