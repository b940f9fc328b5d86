/**
 * The answer without a leading reasoning block: reasoning models (Qwen3, DeepSeek-R1) send
 * `<think>…</think>` inside the content when the server does not split it out, and a summary must not
 * carry it.
 * @example stripThinking('<think>The user wants…</think>\n## Task\nFix the parser') // '## Task\nFix the parser'
 */
export function stripThinking(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>\s*/i, '');
}
