/**
 * Microcompaction: old tool results become restorable stubs, with the restore_tool_result tool and its handler.
 * @packageDocumentation
 */
export { type ArchivedToolResult, isArchivedToolResult, readArchivedToolResult, restoredText } from './archive.ts';
export type { MicrocompactOptions } from './microcompact-settings.ts';
export { microcompactTier } from './microcompact-tier.ts';
export { createRestoreHandler, parseHandle, type RestoreHandler, type RestoreHandlerOptions, type RestoreInput } from './restore-handler.ts';
export {
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type JsonSchema,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  restoreToolResultTool,
  type ToolDefinition,
  toAnthropicTool,
  toGeminiFunctionDeclaration,
  toOpenAIResponsesTool,
  toOpenAITool,
} from './restore-tool.ts';
export { digestOutput, renderDigest, type StubDetailOptions, type StubDigest } from './stub-digest.ts';
export { defaultStubText, describeArguments, type StubDescription } from './stub-text.ts';
