/**
 * Tool JSON-schema compaction, tool search and deferred tools, and the fixed-floor report (schema-bench) for ctxkit.
 * @packageDocumentation
 */
export { type CompactSchemaOptions, compactDescription, compactSchemaChecked, compactToolSchema, type SchemaCompaction, type SchemaLocation } from './compact-tool-schema.ts';
export { type CompactToolsOptions, compactTools, compactToolsChecked, type ToolsCompaction } from './compact-tools.ts';
export type { CompactionWarning } from './compaction-warning.ts';
export { collapseNullable } from './collapse-nullable.ts';
export { type DeferBenchOptions, type DeferBenchReport, deferBench } from './defer-bench.ts';
export { type DeferredToolCall, type DeferredTools, type DeferToolsOptions, deferTools, type ToolLoading } from './defer-tools.ts';
export { measureRetrieval, type RetrievalQuery, type RetrievalScore } from './measure-retrieval.ts';
export { defaultStopWords, type SearchTermsOptions, searchTerms, splitWords } from './search-terms.ts';
export {
  createToolSearch,
  type ToolMatch,
  type ToolSearch,
  type ToolSearchBoost,
  type ToolSearchOptions,
  type ToolSearchSemantic,
  type ToolSearchText,
  toolSearchText,
} from './tool-search.ts';
export {
  type CompareToolChoiceOptions,
  compareToolChoice,
  type ToolChoice,
  type ToolChoiceAnswer,
  type ToolChoiceCase,
  type ToolChoiceCaseResult,
  type ToolChoiceComparison,
} from './compare-tool-choice.ts';
export { collapseWhitespace, dropRequirednessNote, stripEmphasis, tidyWhitespace } from './description-text.ts';
export { firstSentence } from './first-sentence.ts';
export { type GeneratedInstance, type GeneratedInstances, type GenerateInstancesOptions, generateInstances } from './generate-instances.ts';
export { type InspectSchemaOptions, inspectSchema, type SchemaInspection, type SchemaIssue } from './inspect-schema.ts';
export { type NormalizedTools, normalizeToolsInput, type ToolsContainer } from './normalize-tools-input.ts';
export { dropRestatedNotes, restatesSchema } from './redundant-description.ts';
export { samplePattern, violatePattern } from './regex-sample.ts';
export { type SchemaBenchOptions, type SchemaBenchReport, schemaBench, type TokenSavings, type ToolCost } from './schema-bench.ts';
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
export {
  type CompileFailure,
  type CompileSchema,
  checkToolsAgreement,
  checkValidationAgreement,
  type Disagreement,
  type ToolAgreement,
  type ToolsAgreement,
  type ValidationAgreement,
  type ValidationAgreementOptions,
} from './validation-agreement.ts';
