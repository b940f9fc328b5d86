// Common English words, and words every agent task has (its instructions about commands, files and
// tests): they say nothing about which task this is.
const stopWords = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both
  but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further get
  gets got had hadn't has hasn't have haven't having he her here hers herself him himself his how i i'd i'll i'm i've if in
  into is isn't it it's its itself just let's like make me more most much must my myself need needs no nor not now of off
  on once only or other ought our ours ourselves out over own please same she should shouldn't so some such than that that's
  the their theirs them themselves then there there's these they this those through to too under until up us use used using
  very was wasn't we we're were weren't what when where which while who whom why will with won't would wouldn't you you're
  your yours yourself yourselves hello thanks thank help want wants able following consider described description issue
  problem task tasks sure currently something anything everything way ways thing things still well yes okay really actually
  command commands file files change changes environment directory directories code codebase repository repo bash shell
  terminal script scripts edit edits output outputs input run running runs execute step steps tool tools instructions
  instruction example examples e.g i.e etc included include includes submit submission solution work working test tests
  testing make sure important note notes system user assistant agent first last next new one two three`.split(/\s+/),
);

const termPattern = /[\p{L}\p{N}_][\p{L}\p{N}_./:'-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu;

function kindOf(raw: string): 'identifier' | 'number' | 'word' {
  if (/^[\d.,:-]+$/.test(raw)) return /\d\.\d/.test(raw) ? 'identifier' : 'number';
  return /[_./:\d]/.test(raw) || /\p{Ll}\p{Lu}/u.test(raw) ? 'identifier' : 'word';
}

/**
 * The distinctive terms of a task: identifiers, paths, versions and uncommon words, best first. A term
 * scores for its kind (identifier-like over long words over short ones), for coming early (a task
 * states its point first; agent boilerplate follows) and a little for repeating.
 * @example keyTerms('Fix the crash in src/app.ts when parseConfig gets null') // ['src/app.ts', 'parseconfig', 'crash', 'null', ...]
 */
export function keyTerms(task: string, limit = 10): string[] {
  // Markup tags (<pr_description>) name the format, not the task.
  const text = task.replace(/<\/?[A-Za-z_][\w-]*>/g, ' ');
  const seen = new Map<string, { score: number; first: number; repeats: number }>();
  for (const match of text.matchAll(termPattern)) {
    const raw = match[0];
    const term = raw.toLowerCase();
    const kind = kindOf(raw);
    if (term.includes('://') || term.length > 60 || stopWords.has(term)) continue;
    if (kind === 'word' && term.length < 4) continue;
    if (kind !== 'word' && term.length < 2) continue;
    const entry = seen.get(term);
    if (entry) {
      if (entry.repeats < 2) entry.score += 0.5;
      entry.repeats += 1;
      continue;
    }
    const at = match.index ?? 0;
    const base = kind === 'identifier' ? 3 : kind === 'word' && term.length >= 7 ? 2 : 1;
    seen.set(term, { score: base + (at < 300 ? 2 : at < 1_500 ? 1 : 0), first: at, repeats: 0 });
  }
  return [...seen.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map(([term]) => term);
}

const taskName = String.raw`(?:the\s+)?(?:tasks?|goal|objective)`;
const taskHeadings = [
  new RegExp(String.raw`^\s*#{1,6}\s*(?:\d+[.)]\s*)?${taskName}\b\s*:?(.*)$`, 'i'),
  new RegExp(String.raw`^\s*(?:\*\*|__)${taskName}\s*:?\s*(?:\*\*|__)\s*:?(.*)$`, 'i'),
  new RegExp(String.raw`^\s*(?:\d+[.)]\s*)?${taskName}\s*:(.*)$`, 'i'),
];
const nextHeading = [
  /^\s*#{1,6}\s+\S/,
  /^\s*(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)\s*:?\s*$/,
  /^\s*(?:\*\*|__)[^*_\n]{1,60}(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)/,
  /^\s*(?:\d+[.)]\s*)?(?:constraints(?: from the user)?|done|files(?: touched)?|decisions|errors|open questions|next steps)\s*:/i,
];

/**
 * The text of a summary's Task section (a `## Task` heading, `**Task**` or `Task:` line) up to the
 * next heading, or undefined when the summary has none.
 */
export function taskSection(summary: string): string | undefined {
  const lines = summary.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const inline = taskHeadings.map((pattern) => pattern.exec(lines[index]!)).find((match) => match !== null);
    if (!inline) continue;
    const body = [inline[1] ?? ''];
    for (const line of lines.slice(index + 1)) {
      if (nextHeading.some((pattern) => pattern.test(line))) break;
      body.push(line);
    }
    return body.join('\n').trim();
  }
  return undefined;
}

function mentions(text: string, term: string): boolean {
  if (text.includes(term)) return true;
  // Plain words may come back inflected: "downgrade" as "downgrading".
  return /^\p{L}{6,}$/u.test(term) && text.includes(term.slice(0, Math.max(5, Math.ceil(term.length * 0.7))));
}

/**
 * Why a summary lost the task, or undefined when it kept it: the summary needs a non-empty Task
 * section that mentions at least `coverage` of the task's {@link keyTerms} (at least one).
 */
export function taskProblem(summary: string, task: string, coverage: number): string | undefined {
  const section = taskSection(summary);
  if (section === undefined) return 'it has no Task section';
  if (section === '' || /^(?:none|n\/a|unknown|-)\.?$/i.test(section)) return 'its Task section is empty';
  const terms = keyTerms(task);
  if (terms.length === 0 || coverage <= 0) return undefined;
  const text = section.toLowerCase();
  const found = terms.filter((term) => mentions(text, term));
  const needed = Math.max(1, Math.ceil(coverage * terms.length));
  if (found.length >= needed) return undefined;
  const missing = terms.filter((term) => !found.includes(term)).slice(0, 6);
  return `its Task section mentions ${found.length} of the task's ${terms.length} key terms (needs ${needed}; missing ${missing.join(', ')})`;
}
