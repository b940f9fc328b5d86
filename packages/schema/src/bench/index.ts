/**
 * The measurements behind @ctxkit/schema: the fixed-floor report (`schemaBench`, `deferBench`), retrieval
 * scores for tool search, the tool-choice A/B harness, and the proof that compaction keeps validation
 * (generated instances, regex sampling, validator agreement). Not needed at run time; kept off the main entry.
 * @packageDocumentation
 */
export { type SchemaBenchOptions, type SchemaBenchReport, schemaBench, type TokenSavings, type ToolCost } from './schema-bench.ts';
export { type DeferBenchOptions, type DeferBenchReport, deferBench } from './defer-bench.ts';
export { measureRetrieval, type RetrievalQuery, type RetrievalScore } from './measure-retrieval.ts';
export {
  type CompareToolChoiceOptions,
  compareToolChoice,
  type ToolChoice,
  type ToolChoiceAnswer,
  type ToolChoiceCase,
  type ToolChoiceCaseResult,
  type ToolChoiceComparison,
} from './compare-tool-choice.ts';
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
export { type GeneratedInstance, type GeneratedInstances, type GenerateInstancesOptions, generateInstances } from './generate-instances.ts';
export { samplePattern, violatePattern } from './regex-sample.ts';
