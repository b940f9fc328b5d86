import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CtxkitError, type ErrorClassification, type ProviderErrorKind } from '@ctxkit/core';
import { describe, expect, it } from 'vitest';
import { corpusDir, corpusMissingMessage } from './corpus.ts';

/** One real provider error of the corpus (`errors/provider-errors.json`), with what it must classify as. */
export interface ProviderErrorEntry {
  /** Who sent it, with how it reached the client: `openrouter (upstream DeepInfra/vLLM, wrapped in 502)`. */
  provider: string;
  /** The HTTP status, or null for an error met as text only (a log line, a stream event). */
  status: number | null;
  kind: ProviderErrorKind;
  body_or_message: string;
  /** Where it was found. */
  source: string;
  /** The tokens the request had, when the error says so. */
  reported_tokens?: number;
  /** The limit the provider enforced, when the error says so. */
  limit_tokens?: number;
}

/**
 * The real provider errors of the shared corpus, or an empty list where the corpus is absent.
 * @throws CtxkitError INVALID_ARGUMENT when the file is there but is not a list of entries
 */
export function readProviderErrors(): ProviderErrorEntry[] {
  const dir = corpusDir();
  if (!dir) return [];
  const file = join(dir, 'errors', 'provider-errors.json');
  const entries: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(entries)) throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'testkit', message: `${file} is not a list of provider errors` });
  entries.forEach((entry: Partial<ProviderErrorEntry>, index) => {
    if (typeof entry?.kind !== 'string' || typeof entry.body_or_message !== 'string' || typeof entry.provider !== 'string') {
      throw new CtxkitError({ code: 'INVALID_ARGUMENT', source: 'testkit', message: `${file} entry ${index} needs provider, kind and body_or_message strings` });
    }
  });
  return entries as ProviderErrorEntry[];
}

/** An entry as a classifier meets it: the text alone when there was no status, else `{ status, body }`. */
export function providerErrorInput(entry: ProviderErrorEntry): string | { status: number; body: string } {
  return entry.status === null ? entry.body_or_message : { status: entry.status, body: entry.body_or_message };
}

/** What {@link runProviderErrorCorpus} checks, and with which classifier. */
export interface ProviderErrorCorpusOptions {
  /** Names the suite: `ollamaProvider.classifyError`. */
  name: string;
  /** The classifier under test; `inputTokens` is read where the error splits input and output. */
  classify(error: unknown): ErrorClassification & { inputTokens?: number };
  /**
   * The entries this classifier has rules for (`/ollama/i` on `provider`): each is a test of its own, and
   * every other entry must still classify as recorded, so the rules take nothing from other families.
   * @default every entry, each a test of its own
   */
  own?: RegExp;
  /** More checks on each entry of its own, beside the kind and the token counts. */
  alsoExpect?(entry: ProviderErrorEntry, classification: ErrorClassification): void;
}

/**
 * Runs a classifier over the real error bodies of the corpus (skipped, with {@link corpusMissingMessage},
 * where it is absent): each entry must get its recorded kind, limit and token count. For
 * `input + max_tokens > limit` the corpus records sometimes the total, sometimes the input part, so the
 * recorded count may match `reportedTokens` or `inputTokens`.
 * @example
 * ```ts
 * runProviderErrorCorpus({ name: 'ollamaProvider.classifyError', classify: (error) => ollamaProvider().classifyError(error), own: /ollama/i });
 * ```
 */
export function runProviderErrorCorpus(options: ProviderErrorCorpusOptions): void {
  const present = corpusDir() !== undefined;
  if (!present) console.log(corpusMissingMessage);
  const entries = readProviderErrors();
  const own = options.own ? entries.filter((entry) => options.own?.test(entry.provider)) : entries;

  describe.skipIf(!present)(`${options.name} on the real error bodies of the corpus`, () => {
    if (options.own) {
      it('has entries of its own to check', () => {
        expect(own.length).toBeGreaterThan(0);
      });
    }

    it.each(own.map((entry) => [entry.provider, entry.body_or_message.slice(0, 60), entry] as const))('%s: %s', (_provider, _text, entry) => {
      const result = options.classify(providerErrorInput(entry));
      expect(result.kind).toBe(entry.kind);
      if (entry.limit_tokens !== undefined) expect(result.limitTokens).toBe(entry.limit_tokens);
      if (entry.reported_tokens !== undefined) expect([result.reportedTokens, result.inputTokens]).toContain(entry.reported_tokens);
      options.alsoExpect?.(entry, result);
    });

    if (options.own) {
      it('keeps every other entry in its family: these rules take nothing from the others', () => {
        const wrong = entries
          .map((entry) => ({ entry, kind: options.classify(providerErrorInput(entry)).kind }))
          .filter(({ entry, kind }) => kind !== entry.kind)
          .map(({ entry, kind }) => `${entry.provider}: ${kind} instead of ${entry.kind}`);
        expect(wrong).toEqual([]);
      });
    }
  });
}
