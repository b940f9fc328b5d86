/**
 * The ctxkit message model, transcript helpers, plugin contracts, typed registry and CtxkitError.
 * @packageDocumentation
 */
export { CtxkitError, type CtxkitErrorCode, type CtxkitErrorOptions } from './ctxkit-error.ts';
export { jsonText } from './json-text.ts';
export { parseJsonlTranscript } from './jsonl-transcript.ts';
export { memoryStore } from './memory-store.ts';
export { batchKeys, boundedStore, conversationKeyPrefix, conversationPrefix, conversationStore, describeKeys, entryKeys, scopedStore } from './scoped-store.ts';
export {
  type AssistantMessage,
  type ContentPart,
  type Message,
  type MessageMeta,
  type Role,
  type SystemMessage,
  textOf,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from './message.ts';
export {
  type AnyPlugin,
  type ErrorClassification,
  type EstimatorPlugin,
  type ModelLimits,
  type PluginBase,
  type PluginKind,
  pluginKinds,
  type ProviderErrorKind,
  type ProviderPlugin,
  type ReinjectionBlock,
  type ReinjectionContext,
  type ReinjectionSourcePlugin,
  type SpecificationVersion,
  type SpecificationVersionOf,
  type SpecificationVersions,
  type StoreEntry,
  type StorePlugin,
  type SummarizeRequest,
  type SummarizerPlugin,
  type SupportedSpecificationVersions,
  supportedSpecificationVersions,
  type ThresholdDecision,
  type ThresholdInput,
  type ThresholdPolicyPlugin,
  type TierCategory,
  type TierContext,
  type TierOutcome,
  type TierPlugin,
  type TokenizerPlugin,
  type Usage,
} from './plugin.ts';
export { messageKey } from './message-key.ts';
export { filesInShellCommand, looksLikePath, type ShellFiles } from './shell-command.ts';
export { editedFiles, parseToolArguments, shellCommandOf, type ToolCallFiles, toolCallFiles } from './tool-call-files.ts';
export { createRegistry, type Falsy, type IdsOf, type PluginFor, type Registry } from './registry.ts';
export {
  assertValidTranscript,
  createTranscriptValidator,
  type MessageSpan,
  recentTurnsStart,
  safeCutIndex,
  segmentRounds,
  segmentTurns,
  type TranscriptIssue,
  type TranscriptValidator,
  validateTranscript,
  messageListProblem,
} from './transcript.ts';
