import type { Usage } from '@ctxkit/core';

/** A token count as a provider reports it: a finite number ≥ 0, else undefined. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** A `Usage` of the counts that are there: an absent cached or output count is left out, not set to undefined. */
export function usageFrom(inputTokens: number, cachedInputTokens: number | undefined, outputTokens: number | undefined): Usage {
  return {
    inputTokens,
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
  };
}

/** The usage of the last value that has one, read with `read`: in a stream the final chunk carries the counts. */
export function lastUsage(values: readonly unknown[], read: (value: unknown) => Usage | undefined): Usage | undefined {
  for (let index = values.length - 1; index >= 0; index--) {
    const usage = read(values[index]);
    if (usage) return usage;
  }
  return undefined;
}

/**
 * The JSON objects of a stream's text, SSE (`data: {…}`) or JSON lines alike; a torn or garbled line is
 * skipped (it carries no usage; the last whole one decides).
 */
export function jsonObjectsOfText(text: string): unknown[] {
  const values: unknown[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.startsWith('data:') ? raw.slice(5).trim() : raw.trim();
    if (!line.startsWith('{')) continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      // A torn or garbled line carries no usage; the last one decides.
    }
  }
  return values;
}

/** The values a usage reader looks through: the objects of a stream's text, a list as it is, or the one value. */
export function usageCandidates(response: unknown): readonly unknown[] {
  return typeof response === 'string' ? jsonObjectsOfText(response) : Array.isArray(response) ? response : [response];
}
