/**
 * ctxkit: the default preset (every first-party plugin wired) and the run simulator. The `ctxkit` command
 * is the package's bin (src/cli.ts): the library entry loads no Node built-in (edited files are read through a
 * dynamic import, only when that source runs), so the preset also loads in a browser.
 * @packageDocumentation
 */
export { demoSession } from './demo-session.ts';
export { type CreateCtxkitOptions, createCtxkit, type DefaultPluginsOptions, defaultPlugins } from './preset.ts';
export { pricesFor } from './prices.ts';
export { createRetentionTracker, messageText, type RetentionOptions, type RetentionTally, retentionNames } from './retention.ts';
export {
  costOf,
  defaultTrigger,
  type SimulateOptions,
  type SimulationPolicy,
  type SimulationResult,
  simulateRun,
  simulationPolicies,
  type TokenPrices,
} from './simulate.ts';
