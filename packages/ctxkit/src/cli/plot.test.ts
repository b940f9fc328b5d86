import { describe, expect, it } from 'vitest';
import { loadPlotLibraries } from './plot.ts';

// As a project without ctxkit's optional peers: the command's own run of that is in cli-process.test.ts.
const notFound = (name: string) => Promise.reject(Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' }));

describe('--plot and its optional libraries', () => {
  it('says what to install when Vega or Vega-Lite is missing', async () => {
    await expect(loadPlotLibraries(notFound)).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('run `npm install vega@5 vega-lite@5` beside ctxkit') }),
    );
    const onlyVegaMissing = (name: string) => (name === 'vega' ? notFound(name) : import('vega-lite'));
    await expect(loadPlotLibraries(onlyVegaMissing)).rejects.toThrow('--plot draws with Vega and Vega-Lite');
  });

  it('passes on any other failure to load them as it is', async () => {
    const broken = () => Promise.reject(new SyntaxError('Unexpected token export'));
    await expect(loadPlotLibraries(broken)).rejects.toThrow(SyntaxError);
  });
});
