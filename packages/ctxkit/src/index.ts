/**
 * ctxkit: the default preset (every first-party plugin wired) and the ctxkit command.
 * @packageDocumentation
 */
export { runCli } from './cli/main.ts';
export type { CliIo } from './cli/output.ts';
export { demoSession } from './demo-session.ts';
export { type CreateCtxkitOptions, createCtxkit, type DefaultPluginsOptions, defaultPlugins } from './preset.ts';
export { pricesFor } from './prices.ts';
export { type SimulateOptions, type SimulationPolicy, type SimulationResult, simulateRun, simulationPolicies, type TokenPrices } from './simulate.ts';
