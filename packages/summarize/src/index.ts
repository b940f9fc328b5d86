/**
 * The summary machinery every summarizing tier shares: the structured template, data framing against
 * prompt injection, chunk-and-merge to a summarizer's window, and the lost-the-task check.
 * @packageDocumentation
 */
export { type CountText, packBlocks, splitText } from './chunk-blocks.ts';
export {
  assertProtectedStart,
  coveredCount,
  coveredMessages,
  type DigestMessageOptions,
  digestMessage,
  type FoldSpan,
  findFoldSpan,
  formatCount,
  isCtxkitDigest,
  type SummarizableSpan,
  summarizableSpan,
} from './fold-span.ts';
export { closeMarker, dataBoundary, frameData, openMarker, renderMessage } from './frame-data.ts';
export { type SpanSummaryRequest, type SpanSummaryResult, summarizeSpan } from './summarize-span.ts';
export {
  callsDetail,
  type FoldedSpan,
  type FoldSummarySettings,
  foldSpanSummary,
  minAnswerTokens,
  type SpanFold,
  type SpanFoldSettings,
  summaryBudget,
} from './summary-fold.ts';
export { type InstructionMode, type InstructionOptions, summaryInstructions, summarySections } from './summary-instructions.ts';
export { keyTerms, taskProblem, taskSection } from './task-check.ts';
export { extractNames, forEachName, isDistinctiveName } from './distinctive-names.ts';
export { textHash } from './text-hash.ts';
export { type NumberBounds, numberOption, type ResolvedSummaryOptions, type SummaryOptions, summaryOptions } from './tier-options.ts';
