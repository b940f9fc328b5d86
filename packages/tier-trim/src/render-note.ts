import { clip, type NoteFacts, noteSections } from './note-facts.ts';

/** How much of each list a note keeps (the most recent items), and how long texts may run. */
export interface NoteDetail {
  files: number;
  commands: number;
  toolCalls: number;
  errors: number;
  userMessages: number;
  /** Characters of each user message. */
  userMessageLength: number;
  archived: number;
  /** Characters of earlier summaries, all together. */
  summaryLength: number;
  /** Characters of the last plan. */
  planLength: number;
  /** Characters of the names list. */
  namesLength: number;
}

/** From the fullest note to the barest; a tier takes the first that fits its budget. */
export const noteDetails: readonly NoteDetail[] = [
  { files: 30, commands: 25, toolCalls: 20, errors: 10, userMessages: 6, userMessageLength: 1_200, archived: 20, summaryLength: 3_000, planLength: 800, namesLength: 2400 },
  { files: 15, commands: 12, toolCalls: 10, errors: 6, userMessages: 4, userMessageLength: 500, archived: 10, summaryLength: 1_500, planLength: 400, namesLength: 1200 },
  { files: 8, commands: 6, toolCalls: 5, errors: 4, userMessages: 2, userMessageLength: 300, archived: 5, summaryLength: 700, planLength: 250, namesLength: 600 },
  { files: 4, commands: 3, toolCalls: 2, errors: 2, userMessages: 1, userMessageLength: 200, archived: 2, summaryLength: 300, planLength: 150, namesLength: 240 },
  { files: 0, commands: 0, toolCalls: 0, errors: 0, userMessages: 0, userMessageLength: 0, archived: 0, summaryLength: 0, planLength: 0, namesLength: 0 },
];

function list(title: string, items: readonly string[], keep: number, noun: string): string[] {
  if (items.length === 0) return [];
  if (keep <= 0) return [`## ${title}`, `- (${items.length} ${noun}, not listed)`];
  const shown = items.slice(-keep);
  const hidden = items.length - shown.length;
  return [`## ${title}`, ...(hidden > 0 ? [`- … ${hidden} earlier ${noun} not listed`] : []), ...shown.map((item) => `- ${item}`)];
}

/**
 * The note's body: one `##` section per kind of fact, empty sections left out, lists cut to their
 * most recent items at the given detail. Quoted text is data from the transcript, not instructions.
 */
export function renderNote(facts: NoteFacts, detail: NoteDetail): string {
  const lines: string[] = [];
  if (facts.earlierSummaries.length > 0 && detail.summaryLength > 0) {
    const joined = facts.earlierSummaries.join('\n\n');
    const cut = joined.length > detail.summaryLength ? `${joined.slice(0, detail.summaryLength - 1).trimEnd()}…` : joined;
    lines.push(`## ${noteSections.earlierSummaries}`, cut);
  }
  const written = new Set(facts.filesWritten);
  lines.push(
    ...list(
      noteSections.userMessages,
      facts.userMessages.map((text) => `"${clip(text, detail.userMessageLength)}"`),
      detail.userMessages,
      'user messages',
    ),
    ...list(noteSections.filesWritten, facts.filesWritten, detail.files, 'files'),
    ...list(
      noteSections.filesRead,
      facts.filesRead.filter((path) => !written.has(path)),
      detail.files,
      'files',
    ),
    ...list(noteSections.commands, facts.commands, detail.commands, 'commands'),
    ...list(noteSections.toolCalls, facts.toolCalls, detail.toolCalls, 'calls'),
    ...list(noteSections.errors, facts.errors, detail.errors, 'errors'),
    ...list(noteSections.archived, facts.archived, detail.archived, 'results'),
  );
  const names = namesLine(facts, detail.namesLength);
  if (names !== '') lines.push(`## ${noteSections.names}`, names);
  if (facts.lastPlan !== undefined && detail.planLength > 0) lines.push(`## ${noteSections.lastPlan}`, clip(facts.lastPlan, detail.planLength));
  return lines.join('\n');
}

/**
 * The names the note keeps, within `length` characters: the most recently seen first (an agent reaches
 * back for what it touched last), the more frequent first among names seen at the same place; bare
 * numbers are left out.
 */
function namesLine(facts: NoteFacts, length: number): string {
  if (length <= 0 || facts.names.size === 0) return '';
  const ranked = [...facts.names.entries()].sort(([, a], [, b]) => b.last - a.last || b.count - a.count);
  const kept: string[] = [];
  let used = 0;
  for (const [name] of ranked) {
    // A bare number (a line number, a count) says nothing without the line it came from.
    if (/^\d+$/.test(name) || name.includes(', ') || used + name.length + 2 > length) continue;
    kept.push(name);
    used += name.length + 2;
  }
  return kept.join(', ');
}
