// Held-out estimate of a naive Bayes word model as a fallback for errors no rule names (decision 0066):
// for each held-out set k (4..7) a table is built from the corpus, provider-errors-more, held-out sets 1-3 and the
// sets before k; where the rules, untouched, answered `other` (recorded in `untouched_answer`), a guess at or
// above the threshold replaces it. Run from the workspace root:
//   npx tsx experiments/error-words/eval.ts [threshold] [none|sqrt] [later]
// (`later`: the eighth set and every one after, collected after the model was written, each trained on the sets before it.)
import { errorWordExample, errorWordSets } from './error-word-examples.ts';
import { buildErrorWordTable, guessErrorKind } from './error-word-model.ts';

const threshold = Number(process.argv[2] ?? 0.7);
const temper = (process.argv[3] ?? 'sqrt') as 'none' | 'sqrt';
const total = { entries: 0, untouched: 0, withGuess: 0, rescues: 0, flips: 0 };
// Sets from the eighth on were collected after the model was written.
const setNumber = (name: string) => Number(/^holdout-(\d+)$/.exec(name)?.[1] ?? Number.NaN);
const setNumbers = Object.keys(errorWordSets)
  .map(setNumber)
  .filter((k) => !Number.isNaN(k));
const later = (name: string) => setNumber(name) >= 8;
const sets = process.argv[4] === 'later' ? setNumbers.filter((k) => k >= 8) : [4, 5, 6, 7];
for (const k of sets) {
  const names = ['corpus', 'more', 'holdout-1', 'holdout-2', 'holdout-3'];
  for (let j = 4; j < k; j++) names.push(`holdout-${j}`);
  const table = buildErrorWordTable(names.flatMap((name) => errorWordSets[name]!().map(errorWordExample)));
  const set = { entries: 0, untouched: 0, withGuess: 0, rescues: 0, flips: 0 };
  for (const entry of errorWordSets[`holdout-${k}`]!() as { kind: string; untouched_answer?: string }[]) {
    const said = (entry.untouched_answer ? /kind (\w+)/.exec(entry.untouched_answer)?.[1] : undefined) ?? entry.kind;
    const example = errorWordExample(entry as never);
    const guess = example.status === 401 || example.status === 404 ? undefined : guessErrorKind(table, example.text, example.status, temper);
    const answer = said === 'other' && guess && guess.kind !== 'other' && guess.probability >= threshold ? guess.kind : said;
    set.entries++;
    if (said === entry.kind) set.untouched++;
    if (answer === entry.kind) set.withGuess++;
    if (said !== entry.kind && answer === entry.kind) set.rescues++;
    if (said === entry.kind && answer !== entry.kind) set.flips++;
  }
  console.log(`set ${k}: ${set.untouched} -> ${set.withGuess} of ${set.entries} (rescued ${set.rescues}, broke ${set.flips})`);
  for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += set[key];
}
console.log(`all: ${total.untouched} -> ${total.withGuess} of ${total.entries} (rescued ${total.rescues}, broke ${total.flips}); threshold ${threshold}, temper ${temper}`);
const table = buildErrorWordTable(
  Object.keys(errorWordSets)
    .filter((name) => !later(name))
    .flatMap((name) => errorWordSets[name]!().map(errorWordExample)),
);
for (const text of ['The model returned 500 tokens before stopping', 'Invalid value for temperature: must be between 0 and 2', 'Invalid API key provided']) {
  const guess = guessErrorKind(table, text, 400, temper);
  console.log(`status 400, ${JSON.stringify(text)}: ${guess?.kind} ${guess?.probability.toFixed(2)}`);
}
