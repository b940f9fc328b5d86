/** Where a command writes: injected so tests and embedders can capture it. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal: progress bars are drawn only then. */
  isTTY: boolean;
}

/** A number with thousands separators. */
export const formatNumber = (value: number) => Math.round(value).toLocaleString('en-US');

/** A noun for a count of things: `token` for 1, `tokens` otherwise (`many` when the plural is not `one` + s). */
export const noun = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);

/**
 * A count of things as the command prints it, with thousands separators and the noun in the number it takes.
 * @example counted(1, 'message') // '1 message'
 * @example counted(12000, 'token') // '12,000 tokens'
 */
export const counted = (count: number, one: string, many = `${one}s`) => `${formatNumber(count)} ${noun(count, one, many)}`;

/** A percentage with no decimals. */
export const formatPercent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/**
 * An aligned text table: the first column left-aligned, the others right-aligned (numbers).
 * @example table(['a', 'b'], [['x', '1'], ['yy', '22']])
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * A progress bar on stderr that appears only on a terminal and only once the work has taken more than
 * a second, so quick commands and piped output stay clean.
 */
export function progressBar(io: CliIo, label: string) {
  const started = Date.now();
  let drawn = false;
  return {
    update(done: number, total: number) {
      if (!io.isTTY || Date.now() - started < 1_000 || total <= 0) return;
      const width = 28;
      const filled = Math.round((done / total) * width);
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    done() {
      if (drawn) io.stderr(`\r${' '.repeat(label.length + 44)}\r`);
    },
  };
}

/**
 * Ends the process quietly (exit code 0) when the reader of `stream` has gone away (`ctxkit measure
 * run.jsonl | head -1`): EPIPE is not an error of the command. Other stream errors are rethrown.
 */
export function endQuietlyOnClosedPipe(stream: NodeJS.WritableStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') exit(0);
    else throw error;
  });
}
