import type { Message, ToolMessage } from '@ctxkit/core';

/** What a policy may use at each step of a replay: the simulated provider's count and the summarizer. */
export interface PolicyContext {
  /** The simulated model's context window. */
  readonly window: number;
  /** The output budget reserved for every request. */
  readonly maxOutputTokens: number;
  /** When set, the policy compacts when a request exceeds this many tokens instead of by its own rule. */
  readonly triggerTokens: number | undefined;
  /** Tokens of a request as the simulated provider counts them. */
  tokens(messages: readonly Message[]): number;
  /** Tokens of a piece of text. */
  countText(text: string): number;
  /** Asks the summarizer (the active model, or its offline stand-in) for a summary; every call is priced. */
  summarize(messages: readonly Message[], instructions: string): Promise<string>;
}

/** What a policy sends at one step. */
export interface PolicyStep {
  /** The request as it is sent. */
  request: readonly Message[];
  /** The history the agent continues from, when the policy rewrote it (a summary replaces what it folded). */
  history?: Message[];
  /** Whether the policy compacted at this step (anything it sent differs from plain appending). */
  compacted: boolean;
}

/** One policy's state along one replay. */
export interface ReplayPolicy {
  step(history: readonly Message[]): Promise<PolicyStep>;
}

/** Makes a policy's state for one replay. */
export type ReplayPolicyFactory = (context: PolicyContext) => ReplayPolicy;

/** A tool result with its content replaced, marked as written by `by`. */
export function clearedResult(message: ToolMessage, text: string, by: string): ToolMessage {
  return { ...message, content: text, meta: { ...message.meta, ctxkit: { kind: 'stub', by, replaces: [message.id ?? message.toolCallId] } } };
}

/** A summary message in the user role, as the summarizing peers insert it. */
export function summaryMessage(text: string, by: string, replaced: number): Message {
  return { role: 'user', content: text, meta: { ctxkit: { kind: 'summary', by, replaces: [`${replaced} messages`] } } };
}

/** The system message as a prefix array (empty when the run has none). */
export function systemPrefix(history: readonly Message[]): Message[] {
  return history[0]?.role === 'system' ? [history[0]] : [];
}

/**
 * Replaces the content of some tool results, keeping earlier replacements identical (same object), so a
 * view-only policy (masking, clearing) leaves the prompt cache intact where nothing new was cleared.
 */
export function createClearingView(by: string, placeholder: (message: ToolMessage) => string) {
  const cleared = new WeakMap<Message, ToolMessage>();
  return (history: readonly Message[], clear: (index: number) => boolean): { request: Message[]; changed: number } => {
    let changed = 0;
    const request = history.map((message, index) => {
      if (message.role !== 'tool' || !clear(index)) return message;
      let replacement = cleared.get(message);
      if (!replacement) {
        replacement = clearedResult(message, placeholder(message), by);
        cleared.set(message, replacement);
        changed += 1;
      }
      return replacement;
    });
    return { request, changed };
  };
}
