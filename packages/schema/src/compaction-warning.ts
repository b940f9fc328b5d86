/** A schema or tool that compaction passed through unchanged, or compacted with a caveat. */
export interface CompactionWarning {
  /** Position of the tool in the list given to `compactTools`; absent for `compactToolSchema`. */
  toolIndex?: number;
  /** The tool's name, when it has one. */
  toolName?: string;
  /** JSON Pointer inside the input schema: `/properties/query/$ref`; empty for the schema (or tool) itself. */
  path: string;
  problem: string;
  /** `passed-through`: returned exactly as given. `compacted`: compacted anyway, since the problem does not touch what changed. */
  action: 'passed-through' | 'compacted';
  /** The whole warning as one line, with the `[ctxkit:schema]` prefix. */
  message: string;
}

/** Builds a warning with its one-line message. */
export function compactionWarning(fields: Omit<CompactionWarning, 'message'>): CompactionWarning {
  const tool = fields.toolIndex === undefined ? 'schema' : `tool ${fields.toolIndex}${fields.toolName === undefined ? '' : ` (${JSON.stringify(fields.toolName)})`}`;
  const where = fields.path === '' ? '' : ` at ${fields.path}`;
  const outcome = fields.action === 'passed-through' ? 'passed through unchanged' : 'compacted anyway';
  const warning: CompactionWarning = { ...fields, message: `[ctxkit:schema] ${tool}${where}: ${fields.problem}; ${outcome}` };
  return warning;
}

/** Where warnings go when the caller gives no `onWarning`: the console, so nothing passes silently. */
export function defaultWarningHandler(warning: CompactionWarning): void {
  console.warn(warning.message);
}
