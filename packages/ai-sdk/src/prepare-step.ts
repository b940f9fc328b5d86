import { CtxkitError, type Message } from '@ctxkit/core';
import { type ContextManager, createHostHistory, type PrepareReport } from '@ctxkit/engine';
import type { LanguageModel, ModelMessage, StepResult, ToolSet } from 'ai';
import { createConversionCache, fromModelMessages, toModelMessages } from './convert.ts';
import { usageFromStep } from './usage.ts';

/** Options for {@link ctxkitPrepareStep}. */
export interface CtxkitPrepareStepOptions {
  /** The model id the manager looks the window up by. @default `provider:modelId` of the step's model (or the id string) */
  model?: string;
  /** Tool definitions sent each step, counted in the fixed floor. @default the manager's tools */
  tools?: readonly unknown[];
  /** Called with each prepare's report. */
  onPrepare?: (report: PrepareReport) => void;
}

/** What {@link ctxkitPrepareStep} reads of prepareStep's argument (a subset of the AI SDK's, so any TOOLS fit). */
export interface PrepareStepInput {
  steps: ReadonlyArray<Pick<StepResult<ToolSet>, 'usage'>>;
  model: LanguageModel;
  messages: ModelMessage[];
  instructions?: unknown;
  abortSignal?: AbortSignal;
}

/** The id of the model a step runs on: the id string, or `provider:modelId` of a model object. */
function stepModelId(model: LanguageModel): string {
  if (typeof model === 'string') return model;
  const { provider, modelId } = model as { provider?: string; modelId?: string };
  return `${provider ?? 'unknown'}:${modelId ?? 'unknown'}`;
}

// The instructions (system prompt) are sent apart from `messages`; ctxkit measures them as the system message.
function instructionsText(instructions: unknown): string | undefined {
  if (typeof instructions === 'string') return instructions;
  const list = Array.isArray(instructions) ? instructions : instructions ? [instructions] : [];
  const texts = list.map((entry) => (typeof entry === 'string' ? entry : typeof (entry as { content?: unknown })?.content === 'string' ? (entry as { content: string }).content : ''));
  const joined = texts.filter(Boolean).join('\n');
  return joined === '' ? undefined : joined;
}

/**
 * A `prepareStep` for `generateText` / `streamText` (and `ToolLoopAgent`) that prepares each step's
 * messages with the manager and records the previous step's usage. For users who prefer it to
 * {@link ctxkitMiddleware}; use one of the two, not both. Overflow errors are not retried here (prepareStep
 * cannot see them): the middleware does that.
 * @throws CtxkitError INVALID_ARGUMENT when `manager` is missing
 * @example
 * ```ts
 * const result = streamText({ model, tools, stopWhen: stepCountIs(200), prompt, prepareStep: ctxkitPrepareStep(manager) });
 * ```
 */
export function ctxkitPrepareStep(manager: ContextManager, options: CtxkitPrepareStepOptions = {}): (input: PrepareStepInput) => Promise<{ messages: ModelMessage[] }> {
  if (!manager || typeof manager.prepare !== 'function') {
    throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'ai-sdk', message: 'ctxkitPrepareStep needs a context manager from createCtxkit or createContextManager' });
  }
  const cache = createConversionCache();
  const history = createHostHistory();
  let system: { text: string; message: Message } | undefined;
  let lastSent: { messages: readonly Message[]; model: string } | undefined;
  return async ({ steps, model, messages, instructions, abortSignal }) => {
    const modelId = options.model ?? stepModelId(model);
    const previous = steps.at(-1);
    const usage = usageFromStep(previous?.usage);
    if (lastSent && usage) manager.record({ model: lastSent.model, usage, messageCount: lastSent.messages.length, messages: lastSent.messages });
    const text = instructionsText(instructions);
    // The same object every step while the instructions stay the same: the meter counts by identity.
    if (text !== undefined && system?.text !== text) system = { text, message: { role: 'system', content: text } };
    const converted = fromModelMessages(messages, cache);
    const withSystem: Message[] = text !== undefined && system && converted[0]?.role !== 'system' ? [system.message, ...converted] : converted;
    const input = history.continue(withSystem);
    const prepared = await manager.prepare(input, {
      model: modelId,
      ...(options.tools ? { tools: options.tools } : {}),
      ...(abortSignal ? { signal: abortSignal } : {}),
    });
    options.onPrepare?.(prepared.report);
    history.remember(withSystem, prepared.messages);
    lastSent = { messages: prepared.messages, model: modelId };
    if (prepared.messages === withSystem) return { messages };
    const back = withSystem === converted ? prepared.messages : prepared.messages.slice(1);
    return { messages: toModelMessages(back) };
  };
}
