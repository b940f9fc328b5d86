import { readProviderErrors } from '../../packages/testkit/src/index.ts';
import type { ProviderErrorKind } from '@ctxkit/core';
import { normalizeError } from '../../packages/provider-utils/src/classify-error.ts';
import type { ErrorWordExample } from './error-word-model.ts';
import holdout1 from '../../packages/provider-utils/src/__fixtures__/holdout-errors.json' with { type: 'json' };
import holdout2 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-2.json' with { type: 'json' };
import holdout3 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-3.json' with { type: 'json' };
import holdout4 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-4.json' with { type: 'json' };
import holdout5 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-5.json' with { type: 'json' };
import holdout6 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-6.json' with { type: 'json' };
import holdout7 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-7.json' with { type: 'json' };
import holdout8 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-8.json' with { type: 'json' };
import holdout9 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-9.json' with { type: 'json' };
import holdout10 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-10.json' with { type: 'json' };
import holdout11 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-11.json' with { type: 'json' };
import holdout12 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-12.json' with { type: 'json' };
import holdout13 from '../../packages/provider-utils/src/__fixtures__/provider-errors-holdout-13.json' with { type: 'json' };
import more from '../../packages/provider-utils/src/__fixtures__/provider-errors-more.json' with { type: 'json' };

interface SourcedError {
  status: number | null;
  kind: string;
  body_or_message?: string;
  body?: string;
  provider_option?: string;
}

/** The sets the word model learns from, by name; a held-out measurement leaves its own set out. */
export const errorWordSets: Readonly<Record<string, () => readonly SourcedError[]>> = {
  corpus: () => readProviderErrors(),
  more: () => more as SourcedError[],
  'holdout-1': () => holdout1 as SourcedError[],
  'holdout-2': () => holdout2 as SourcedError[],
  'holdout-3': () => holdout3 as SourcedError[],
  'holdout-4': () => holdout4 as SourcedError[],
  'holdout-5': () => holdout5 as SourcedError[],
  'holdout-6': () => holdout6 as SourcedError[],
  'holdout-7': () => holdout7 as SourcedError[],
  'holdout-8': () => holdout8 as SourcedError[],
  'holdout-9': () => holdout9 as SourcedError[],
  'holdout-10': () => holdout10 as SourcedError[],
  'holdout-11': () => holdout11 as SourcedError[],
  'holdout-12': () => holdout12 as SourcedError[],
  'holdout-13': () => holdout13 as SourcedError[],
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
