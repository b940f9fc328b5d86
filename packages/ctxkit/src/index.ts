/**
 * ctxkit: the default preset (every first-party plugin wired) and the ctxkit command.
 * @packageDocumentation
 */
export { type CreateCtxkitOptions, createCtxkit, type DefaultPluginsOptions, defaultPlugins } from './preset.ts';
