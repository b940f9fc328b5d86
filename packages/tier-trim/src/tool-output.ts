/**
 * The exit status a tool result shows, or undefined when it shows none: mini-swe-agent's
 * `<returncode>1</returncode>`, SWE-agent's `///PROCESS-DONE:0:PROCESS-DONE///` and "ran successfully",
 * and "exit code 2" / "exited with status 2" / "returncode: 2" in the first or last lines.
 * @example exitStatus('<returncode>1</returncode>\n<output>…') // 1
 */
export function exitStatus(result: string): number | undefined {
  // Cheap substring checks first: most results carry none of these, and a regex over 100 KB is not free.
  if (result.includes('<returncode>') || result.includes('<exit_code>') || result.includes('PROCESS-DONE:')) {
    const tagged = /<returncode>\s*(-?\d+)\s*<\/returncode>|<exit_code>\s*(-?\d+)\s*<\/exit_code>|PROCESS-DONE:(-?\d+):PROCESS-DONE/.exec(result);
    if (tagged) return Number(tagged[1] ?? tagged[2] ?? tagged[3]);
  }
  if (result.includes('Your command ran successfully')) return 0;
  // Prose forms only count at the edges (the first line, the last two), so a log that mentions
  // "exit code 1" mid-way does not.
  const trimmed = result.trim();
  const firstBreak = trimmed.indexOf('\n');
  const head = firstBreak < 0 ? trimmed : trimmed.slice(0, firstBreak);
  const lastBreak = trimmed.lastIndexOf('\n', trimmed.lastIndexOf('\n') - 1);
  const tail = firstBreak < 0 ? '' : trimmed.slice(Math.max(firstBreak, lastBreak) + 1);
  const prose = /\b(?:exit(?:ed)?(?: with)?(?: code| status)|exit_code|return ?code|returncode|status code)\s*[:=]?\s*(-?\d+)\b/i.exec(`${head}\n${tail}`);
  return prose ? Number(prose[1]) : undefined;
}

const exceptionLine = /^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Fault)\b(?::.*)?$/;
// Source code in a listing (`281:    except KeyError:`) names errors without any having happened.
const codeLine = /^\s*(?:\d+[:|]\s|File "|at |#|\/\/|\*|except\b|raise\b|catch\b|throw\b|class\b|def\b|import\b|from\b|if\b|elif\b|return\b)/;
const errorLine = /(?:^|\s)(?:(?:[A-Z]\w*)?(?:Error|Exception)|error(?:\[\w+\])?|fatal|panic|FAILED|ERROR|npm ERR!)(?::|\s|$)/;

/**
 * The error lines of a tool result, at most `limit`, each cut to 200 characters: the exception line of
 * every Python traceback, and lines that read like errors ("Error: …", "fatal: …", "E999 SyntaxError: …",
 * "FAILED …"). When the result shows exit status 0, only tracebacks count: a successful `grep` or `cat`
 * of source code prints words like "Error" without anything having failed.
 */
export function errorLines(result: string, exit: number | undefined, limit = 3): string[] {
  const lines = result.split('\n');
  const found: string[] = [];
  const add = (line: string) => {
    const text = line.trim().replace(/\s+/g, ' ');
    const cut = text.length > 200 ? `${text.slice(0, 199)}…` : text;
    if (cut !== '' && !found.includes(cut)) found.push(cut);
  };
  const traceback = result.includes('Traceback (most recent call last)');
  for (let index = 0; traceback && index < lines.length; index++) {
    if (!lines[index]!.includes('Traceback (most recent call last)')) continue;
    for (let next = index + 1; next < lines.length; next++) {
      const line = lines[next]!.replace(/^<\/?output>/, '');
      if (/^\s/.test(line) || line === '') continue;
      if (exceptionLine.test(line.trim())) {
        add(line);
        index = next;
        break;
      }
    }
  }
  if (exit === undefined || exit !== 0) {
    for (const line of lines) {
      if (found.length >= limit) break;
      if (line.length < 400 && errorLine.test(line) && !codeLine.test(line)) add(line);
    }
  }
  return found.slice(0, limit);
}
