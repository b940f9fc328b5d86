/**
 * Tool JSON-schema compaction, tool search and deferred tools for ctxkit. The measurements (schema-bench,
 * defer-bench, retrieval, tool-choice A/B, validation agreement) are on the `@ctxkit/schema/bench` subpath.
 * @packageDocumentation
 */
export { type CompactSchemaOptions, compactDescription, compactSchemaChecked, compactToolSchema, type SchemaCompaction, type SchemaLocation } from './compact-tool-schema.ts';
export { type CompactToolsOptions, compactTools, compactToolsChecked, type ToolsCompaction } from './compact-tools.ts';
export type { SharedParameter } from './shared-parameters.ts';
export type { CompactionWarning } from './compaction-warning.ts';
export { dedupeBranchDescriptions } from './branch-descriptions.ts';
export { collapseNullable } from './collapse-nullable.ts';
export { type DeferredToolCall, type DeferredTools, type DeferToolsOptions, deferTools, type ToolLoading } from './defer-tools.ts';
export { defaultStopWords, type SearchTermsOptions, searchTerms, splitWords } from './search-terms.ts';
export { ToolEmbeddingError, type ToolEmbeddingErrorOptions, type ToolEmbeddingProblem } from './tool-embedding-error.ts';
export type { Embedding } from './tool-embeddings.ts';
export {
  createToolSearch,
  type ToolMatch,
  type ToolSearch,
  type ToolSearchBoost,
  type ToolSearchOptions,
  type ToolSearchQueryOptions,
  type ToolSearchSemantic,
  type ToolSearchText,
  toolSearchText,
} from './tool-search.ts';
export { collapseWhitespace, compactDataBlocks, dropRequirednessNote, stripEmphasis, terseDescription, tidyWhitespace } from './description-text.ts';
export { moveDocstringArgs } from './docstring-args.ts';
export { minSharedSubschemaLength, shareRepeatedSubschemas } from './repeated-subschemas.ts';
export { dropUnusedDefinitions, dropUnusedRootId } from './unused-definitions.ts';
export { firstSentence, firstSentenceAndDirectives, sentenceStarts, statesCondition } from './first-sentence.ts';
export { type InspectSchemaOptions, inspectSchema, type SchemaInspection, type SchemaIssue } from './inspect-schema.ts';
export { type NormalizedTools, normalizeToolsInput, type ToolsContainer } from './normalize-tools-input.ts';
export { dropRestatedNotes, restatesSchema } from './redundant-description.ts';
export { declaredDialect, dialectDifference, type SchemaDialect } from './schema-dialect.ts';
export {
  type AnthropicTool,
  type FunctionDeclaration,
  type JsonSchema,
  type McpTool,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type ToolDefinition,
  type ToolShape,
  toolShape,
} from './tool-shapes.ts';
