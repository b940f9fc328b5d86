import { UsageError } from './input.ts';
import { importOptional } from './optional-import.ts';

/** Vega-Lite's compiler and Vega's runtime, the two libraries `--plot` draws with. */
export interface PlotLibraries {
  compile: typeof import('vega-lite').compile;
  vega: typeof import('vega');
}

/** The versions `--plot` is written and tested against; the install hint names them. */
const plotPeers = 'vega@5 vega-lite@5';

/**
 * Loads Vega and Vega-Lite, which `ctxkit` lists as optional peers rather than installing them for every
 * user (85 of the command's packages and 42 MB, for one flag). A library that is not installed is a usage
 * error that says what to install; any other failure to load one is passed on as it is.
 */
export async function loadPlotLibraries(load: (name: string) => Promise<unknown> = importOptional): Promise<PlotLibraries> {
  try {
    const [vegaLite, vega] = await Promise.all([load('vega-lite'), load('vega')]);
    return { compile: (vegaLite as typeof import('vega-lite')).compile, vega: vega as typeof import('vega') };
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new UsageError(`--plot draws with Vega and Vega-Lite, which ctxkit does not install for everyone: run \`npm install ${plotPeers}\` beside ctxkit`);
  }
}

/** One point of the retention–cost plot: a policy's replay at one window, pooled over the runs. */
export interface RetentionPoint {
  policy: string;
  window: number;
  /** 'own' for the policy's own rule, 'iso' at ctxkit's threshold, or 'trigger' at a fixed trigger. */
  rule: string;
  costUsd: number;
  retention: number;
  farRetention: number;
  overflows: number;
}

/**
 * Far retention against cost, one point per policy and window, as an SVG file a browser opens:
 * drawn with Vega-Lite (compiled and rendered headless by Vega), loaded only when a plot is asked for.
 * A colour per policy, a shape per window; the label says when a peer ran at ctxkit's threshold (iso).
 * Policies that overflowed are drawn hollow: what they kept did not fit the window.
 */
export async function retentionPlotSvg(points: readonly RetentionPoint[], title: string, libraries?: PlotLibraries): Promise<string> {
  const { compile, vega } = libraries ?? (await loadPlotLibraries());
  const values = points.map((point) => ({
    ...point,
    label: point.rule === 'own' ? point.policy : `${point.policy} (${point.rule})`,
    windowLabel: `${Math.round(point.window / 1000)}K window`,
    fits: point.overflows === 0 ? 'never overflowed' : `overflowed`,
  }));
  const spec = compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: {
      text: title,
      subtitle: [
        'far retention: share of the names the next move took from more than 4 messages back that the request still held',
        "hollow: the policy overflowed the window (its requests would be rejected); (iso): a peer run at ctxkit's threshold",
      ],
    },
    width: 640,
    height: 420,
    data: { values },
    layer: [
      {
        mark: { type: 'point', size: 110, strokeWidth: 2 },
        encoding: {
          x: { field: 'costUsd', type: 'quantitative', title: 'cost, summaries included (USD)', scale: { zero: false } },
          y: { field: 'farRetention', type: 'quantitative', title: 'far retention', axis: { format: '.0%' }, scale: { zero: false } },
          color: { field: 'policy', type: 'nominal', title: 'policy' },
          shape: { field: 'windowLabel', type: 'nominal', title: 'window' },
          fill: { condition: { test: 'datum.overflows === 0', field: 'policy', type: 'nominal' }, value: 'transparent' },
          tooltip: [
            { field: 'label' },
            { field: 'windowLabel' },
            { field: 'costUsd', format: '$.2f' },
            { field: 'farRetention', format: '.1%' },
            { field: 'retention', format: '.1%' },
            { field: 'overflows' },
          ],
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 8, dy: -6, fontSize: 10 },
        encoding: {
          x: { field: 'costUsd', type: 'quantitative' },
          y: { field: 'farRetention', type: 'quantitative' },
          text: { field: 'label' },
        },
      },
    ],
  } as Parameters<typeof compile>[0]).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  return view.toSVG();
}
