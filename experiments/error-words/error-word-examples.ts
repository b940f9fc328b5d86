import { readProviderErrors } from '../../packages/testkit/src/index.ts';
import type { ProviderErrorKind } from '@ctxkit/core';
import { normalizeError } from '../../packages/provider-utils/src/classify-error.ts';
import type { ErrorWordExample } from './error-word-model.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface SourcedError {
  status: number | null;
  kind: string;
  body_or_message?: string;
  body?: string;
  provider_option?: string;
}

const fixtures = join(import.meta.dirname, '..', '..', 'packages', 'provider-utils', 'src', '__fixtures__');
const readFixture = (file: string) => () => JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as SourcedError[];

/**
 * The sets the word model learns from, by name (`corpus`, `more`, `holdout-1` … `holdout-N`, one per fixture
 * file, so a new held-out set is picked up without an edit); a held-out measurement leaves its own set out.
 */
export const errorWordSets: Readonly<Record<string, () => readonly SourcedError[]>> = {
  corpus: () => readProviderErrors(),
  more: readFixture('provider-errors-more.json'),
  'holdout-1': readFixture('holdout-errors.json'),
  ...Object.fromEntries(
    readdirSync(fixtures)
      .map((file) => /^provider-errors-holdout-(\d+)\.json$/.exec(file))
      .filter((match) => match !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]))
      .map((match) => [`holdout-${match[1]}`, readFixture(match[0])]),
  ),
};

/** A sourced error as the classifier sees it: the normalized text and status, and the kind it means. */
export function errorWordExample(entry: SourcedError): ErrorWordExample {
  const body = entry.body_or_message ?? entry.body ?? '';
  const found = normalizeError(entry.status === null ? body : { status: entry.status, body }, entry.provider_option);
  return { text: found.text, ...(found.status === undefined ? {} : { status: found.status }), kind: entry.kind as ProviderErrorKind };
}

/** Every example of the named sets (all of them by default), in a fixed order. */
export function errorWordExamples(names: readonly string[] = Object.keys(errorWordSets)): ErrorWordExample[] {
  return names.flatMap((name) => errorWordSets[name]!().map(errorWordExample));
}
