/**
 * createContextManager: measures each step, compacts through the registered tiers, reinjects what the run needs, and keeps the circuit breaker.
 * @packageDocumentation
 */
export { createContextManager } from './context-manager.ts';
export type {
  ContextManager,
  ContextManagerOptions,
  PrepareOptions,
  PrepareReport,
  PrepareResult,
  RecoverResult,
  ReinjectionOptions,
} from './manager-types.ts';
export { type CompactionDepthOptions, createCompactionDepth } from './compaction-depth.ts';
export type { BreakerSnapshot, ManagerEvent, RecoverAction, ReinjectedBlock, TierReport } from './events.ts';
export { createHostHistory, type HostHistory } from './host-history.ts';
export { type ContextWindowOption, providerFor, resolveLimits } from './model-limits.ts';
export { type ProtectedRegion, protectedRegion } from './protected-region.ts';
export { createSummarizerGuard, type GuardedCompaction, type SummarizerGuardOptions, type SummarizerReport } from './summarizer-guard.ts';
export { collectReinjection, fairCap, type ReinjectionResult, reinjectionHeader } from './reinjection.ts';
export {
  type EditedFilesSourceOptions,
  editedFiles,
  editedFilesSource,
  type GoalCriterion,
  goalCriteriaSource,
  planSource,
  type Todo,
  taskSource,
  todosSource,
} from './reinjection-sources.ts';
export { type LoadedTools, loadTools, type ToolLoader, type ToolLoading, type ToolLoadingReport } from './tool-loader.ts';
