/** Files a shell command reads and writes, as far as its words show. */
export interface ShellFiles {
  read: string[];
  written: string[];
}

type Token = { word: string } | { operator: string };

const separators = new Set(['&&', '||', ';', '|', '&', '(', ')', '|&']);

/**
 * Splits a command line into words and operators the way a POSIX shell would for this purpose:
 * quotes, escapes, comments, redirections, and here-document bodies (dropped: they are content).
 */
function tokenize(command: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  let expectHeredocDelimiter: boolean | undefined;
  const endWord = () => {
    if (!inWord) return;
    if (expectHeredocDelimiter !== undefined) {
      heredocs.push({ delimiter: word, stripTabs: expectHeredocDelimiter });
      expectHeredocDelimiter = undefined;
    } else {
      tokens.push({ word });
    }
    word = '';
    inWord = false;
  };
  let index = 0;
  while (index < command.length) {
    const char = command[index]!;
    if (char === '\n') {
      endWord();
      tokens.push({ operator: ';' });
      index++;
      // Here-document bodies follow the line that opened them; skip to each delimiter line.
      for (const heredoc of heredocs.splice(0)) {
        while (index < command.length) {
          const lineEnd = command.indexOf('\n', index);
          const line = command.slice(index, lineEnd < 0 ? command.length : lineEnd);
          index = lineEnd < 0 ? command.length : lineEnd + 1;
          if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line).trim() === heredoc.delimiter) break;
        }
      }
      continue;
    }
    if (char === ' ' || char === '\t') {
      endWord();
      index++;
      continue;
    }
    if (char === '#' && !inWord) {
      while (index < command.length && command[index] !== '\n') index++;
      continue;
    }
    if (char === '\\') {
      if (command[index + 1] === '\n') {
        index += 2;
        continue;
      }
      word += command[index + 1] ?? '';
      inWord = true;
      index += 2;
      continue;
    }
    if (char === "'") {
      const close = command.indexOf("'", index + 1);
      const end = close < 0 ? command.length : close;
      word += command.slice(index + 1, end);
      inWord = true;
      index = end + 1;
      continue;
    }
    if (char === '"') {
      index++;
      while (index < command.length && command[index] !== '"') {
        if (command[index] === '\\' && index + 1 < command.length) index++;
        word += command[index];
        index++;
      }
      inWord = true;
      index++;
      continue;
    }
    const rest = command.slice(index);
    const redirect = /^(?:\d*(?:>>|>\||>&|>)|&>>|&>|<<<|<<-|<<|<&|<>|<)/.exec(rest);
    if (redirect && (!inWord || /^\d+$/.test(word))) {
      if (inWord) {
        word = '';
        inWord = false;
      }
      const operator = redirect[0].replace(/^\d+/, '');
      if (operator === '<<' || operator === '<<-') expectHeredocDelimiter = operator === '<<-';
      else tokens.push({ operator });
      index += redirect[0].length;
      continue;
    }
    const separator = /^(?:&&|\|\||\|&|[;|&()])/.exec(rest);
    if (separator) {
      endWord();
      tokens.push({ operator: separator[0] });
      index += separator[0].length;
      continue;
    }
    word += char;
    inWord = true;
    index++;
  }
  endWord();
  return tokens;
}

interface SimpleCommand {
  words: string[];
  redirects: { operator: string; target: string }[];
}

function simpleCommands(tokens: Token[]): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if ('word' in token) {
      current.words.push(token.word);
    } else if (separators.has(token.operator)) {
      if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
      current = { words: [], redirects: [] };
    } else {
      const next = tokens[index + 1];
      if (next && 'word' in next) {
        current.redirects.push({ operator: token.operator, target: next.word });
        index++;
      }
    }
  }
  if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
  return commands;
}

const knownNames = /^(?:Makefile|Dockerfile|README|LICENSE|Gemfile|Rakefile|Procfile|Jenkinsfile|Vagrantfile)$/;

/** A word that names a file or a path (not an option, number, URL, glob or variable). */
export function looksLikePath(word: string): boolean {
  if (word.length < 2 || word.length > 300 || word.startsWith('-') || word.includes('://')) return false;
  if (/[$`*?{}<>|;=@\s]/.test(word) || /^[\d.,:+-]+$/.test(word)) return false;
  if (word === '/dev/null' || word === '..' || word === '~' || word.startsWith('/dev/') || word.startsWith('/proc/')) return false;
  const base = word.replace(/\/+$/, '').split('/').pop() ?? '';
  return word.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(base) || knownNames.test(base);
}

/** A path whose last part has an extension or a well-known name: a file rather than a folder. */
function looksLikeFile(word: string): boolean {
  if (!looksLikePath(word)) return false;
  const base = word.split('/').pop() ?? '';
  return /\.[A-Za-z][A-Za-z0-9]{0,9}$/.test(base) || knownNames.test(base);
}

/** Options that take the next word as their value, per program. */
const valueOptions: Record<string, Set<string>> = {
  grep: new Set(['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D', '--regexp', '--file', '--max-count']),
  rg: new Set(['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-j', '-M', '--glob', '--type', '--regexp']),
  sed: new Set(['-e', '-f', '-l', '--expression', '--file']),
  awk: new Set(['-f', '-v', '-F']),
  head: new Set(['-n', '-c']),
  python: new Set(['-W', '-X']),
};
const family: Record<string, string> = {
  egrep: 'grep',
  fgrep: 'grep',
  ag: 'rg',
  ack: 'rg',
  gsed: 'sed',
  gawk: 'awk',
  mawk: 'awk',
  tail: 'head',
  python3: 'python',
  python2: 'python',
  node: 'python',
  ruby: 'python',
  perl: 'python',
  php: 'python',
  bash: 'python',
  sh: 'python',
  zsh: 'python',
  tsx: 'python',
  deno: 'python',
  bun: 'python',
};
const readers = new Set(['cat', 'less', 'more', 'nl', 'wc', 'stat', 'file', 'md5sum', 'sha1sum', 'sha256sum', 'xxd', 'od', 'strings', 'bat', 'diff', 'cmp', 'open', 'view', 'source', '.']);
const testRunners = new Set(['pytest', 'py.test', 'jest', 'vitest', 'mocha', 'tox', 'nosetests', 'unittest']);
const wrappers = new Set(['sudo', 'time', 'nohup', 'env', 'command', 'exec', 'nice', 'stdbuf']);

/** The arguments that are not options (and not the values options took). */
function operands(words: readonly string[], takesValue: Set<string> | undefined): { operands: string[]; options: string[] } {
  const found: string[] = [];
  const options: string[] = [];
  let endOfOptions = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (!endOfOptions && word === '--') {
      endOfOptions = true;
    } else if (!endOfOptions && word.startsWith('-') && word.length > 1) {
      options.push(word);
      if (takesValue?.has(word)) {
        options.push(words[index + 1] ?? '');
        index++;
      }
    } else {
      found.push(word);
    }
  }
  return { operands: found, options };
}

function analyse(command: SimpleCommand, files: ShellFiles): void {
  for (const { operator, target } of command.redirects) {
    if (target.startsWith('&') || !looksLikePath(target)) continue;
    if (operator.startsWith('>') || operator.startsWith('&>') || operator === '<>') files.written.push(target);
    else if (operator === '<') files.read.push(target);
  }
  let words = command.words;
  // Leading assignments and wrappers (sudo, timeout 60, env X=1) do not name the program.
  for (;;) {
    const first = words[0];
    if (first === undefined) return;
    if (/^\w+=/.test(first)) words = words.slice(1);
    else if (wrappers.has(first)) words = words.slice(1);
    else if (first === 'timeout') words = words.slice(/^\d/.test(words[1] ?? '') ? 2 : 1);
    else break;
  }
  const program = (words[0] ?? '').split('/').pop() ?? '';
  const name = family[program] ?? program;
  const args = words.slice(1);
  const read = (paths: readonly string[], filter = looksLikePath) => files.read.push(...paths.filter(filter));
  const written = (paths: readonly string[]) => files.written.push(...paths.filter(looksLikePath));

  if (readers.has(name) || name === 'head') {
    read(operands(args, valueOptions[name]).operands);
  } else if (name === 'grep' || name === 'rg') {
    const { operands: found, options } = operands(args, valueOptions[name]);
    const patternGiven = options.some((option) => ['-e', '-f', '--regexp', '--file'].includes(option));
    read(patternGiven ? found : found.slice(1), looksLikeFile);
  } else if (name === 'sed' || name === 'awk') {
    const { operands: found, options } = operands(args, valueOptions[name]);
    const scriptGiven = options.some((option) => ['-e', '-f', '--expression', '--file'].includes(option));
    const targets = scriptGiven ? found : found.slice(1);
    if (name === 'sed' && options.some((option) => /^(?:-i|--in-place)/.test(option) || /^-[a-zA-Z]*i/.test(option))) written(targets);
    else read(targets);
  } else if (name === 'python') {
    // -c/-e code and -m module end the interpreter's own arguments; files after a module are its arguments.
    const at = args.findIndex((word) => word === '-c' || word === '-e' || word === '-m');
    if (at >= 0) {
      if (args[at] === '-m') read(args.slice(at + 2), looksLikeFile);
    } else {
      const { operands: found } = operands(args, valueOptions.python);
      read(found.slice(0, 1));
      read(found.slice(1), looksLikeFile);
    }
  } else if (testRunners.has(name)) {
    read(operands(args, undefined).operands, looksLikeFile);
  } else if (name === 'tee' || name === 'touch' || name === 'truncate' || name === 'rm' || name === 'create') {
    written(operands(args, undefined).operands);
  } else if (name === 'cp' || name === 'install') {
    const found = operands(args, undefined).operands;
    read(found.slice(0, -1));
    written(found.slice(-1));
  } else if (name === 'mv') {
    written(operands(args, undefined).operands);
  } else if (name === 'search_file') {
    read(operands(args, undefined).operands.slice(1));
  } else if (name === 'git' && (args[0] === 'apply' || args[0] === 'am')) {
    read(operands(args.slice(1), undefined).operands);
  } else if (name === 'git' && (args[0] === 'checkout' || args[0] === 'restore') && args.includes('--')) {
    written(args.slice(args.indexOf('--') + 1));
  } else if (name === 'patch') {
    const at = args.findIndex((word) => word === '-i' || word === '--input');
    if (at >= 0) read(args.slice(at + 1, at + 2));
  }
}

/**
 * The files a shell command line reads and writes, from its words: readers (cat, head, sed -n, grep,
 * python script.py, pytest paths), writers (redirections, sed -i, tee, cp, mv, rm, touch), and the
 * SWE-agent `create`/`open`/`search_file` commands. Deterministic; paths as written, each once.
 * @example filesInShellCommand("cd /repo && sed -i 's/a/b/' src/app.py && python test.py > out.log")
 * // { read: ['test.py'], written: ['src/app.py', 'out.log'] }
 */
export function filesInShellCommand(command: string): ShellFiles {
  const files: ShellFiles = { read: [], written: [] };
  for (const simple of simpleCommands(tokenize(command))) analyse(simple, files);
  return { read: [...new Set(files.read)], written: [...new Set(files.written)] };
}
