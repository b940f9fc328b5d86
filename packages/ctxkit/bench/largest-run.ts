// The recorded run the ctxkit benchmarks time (not a benchmark itself: no .bench.ts).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '@ctxkit/core';
import { corpusDir, corpusMissingMessage, listTrajectories, readTrajectory } from '@ctxkit/testkit';

/** The largest recorded run of the corpus (by file size) and its messages; exits with the corpus message where the corpus is absent. */
export function largestRecordedRun(): { file: string; messages: Message[] } {
  const dir = corpusDir();
  if (!dir) {
    console.log(corpusMissingMessage);
    process.exit(0);
  }
  const file = listTrajectories().sort((a, b) => statSync(join(dir, 'trajectories', b)).size - statSync(join(dir, 'trajectories', a)).size)[0]!;
  return { file, messages: readTrajectory(file) };
}
