import type { Message } from '@ctxkit/core';

/**
 * Follows a host that sends its whole, uncompacted history every step (framework middleware: the AI SDK's
 * `wrapLanguageModel`, LangChain's `wrapModelCall`), so the manager sees the run as a plain loop would:
 * what it sent last time plus only what the host added since. Without it every step would compact the full
 * history again, rewrite the prompt suffix (and lose the prompt cache behind it), and never anchor on the
 * provider's usage.
 */
export interface HostHistory {
  /**
   * The transcript to prepare: the last prepared transcript followed by the messages the host added after
   * what it sent last time; the host's own list when it changed or dropped an earlier message (a new
   * conversation, an edit), so nothing it sent is ever lost.
   */
  continue(history: readonly Message[]): readonly Message[];
  /** Remembers what the host sent (`history`, as given to `continue`) and what was prepared from it. */
  remember(history: readonly Message[], prepared: readonly Message[]): void;
}

/**
 * A {@link HostHistory} for one conversation. Messages are compared by identity, so convert the host's
 * messages through a cache that gives the same object for the same message.
 * @example
 * ```ts
 * const history = createHostHistory();
 * const input = history.continue(converted);
 * const { messages } = await manager.prepare(input);
 * history.remember(converted, messages);
 * ```
 */
export function createHostHistory(): HostHistory {
  let lastHistory: readonly Message[] = [];
  let lastPrepared: readonly Message[] = [];
  return {
    continue(history) {
      if (lastHistory.length === 0 || history.length < lastHistory.length) return history;
      for (let index = 0; index < lastHistory.length; index++) if (history[index] !== lastHistory[index]) return history;
      return history.length === lastHistory.length ? lastPrepared : [...lastPrepared, ...history.slice(lastHistory.length)];
    },
    remember(history, prepared) {
      lastHistory = [...history];
      lastPrepared = prepared;
    },
  };
}
