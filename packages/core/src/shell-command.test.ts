import { describe, expect, it } from 'vitest';
import { filesInShellCommand, looksLikePath } from './shell-command.ts';

describe('filesInShellCommand', () => {
  it.each([
    ["cd /repo && sed -i 's/a/b/' src/app.py && python test.py > out.log", ['test.py'], ['src/app.py', 'out.log']],
    ["sed -n '771,850p' django/db/models/fields/related.py", ['django/db/models/fields/related.py'], []],
    ['grep -rn "def save" django/db/models/base.py -A 20 | head -40', ['django/db/models/base.py'], []],
    ['grep -rn "pattern" django/ --include=*.py', [], []],
    ['find . -type f -name "*.py" | xargs grep -l "AlterOrderWithRespectTo" | head -20', [], []],
    ['cp django/db/models/base.py django/db/models/base.py.orig', ['django/db/models/base.py'], ['django/db/models/base.py.orig']],
    ['patch -p1 < /tmp/add_pre_save.patch', ['/tmp/add_pre_save.patch'], []],
    ['python -m pytest tests/migrations/test_autodetector.py -xvs 2>&1 | tail -20', ['tests/migrations/test_autodetector.py'], []],
    ["python -c \"open('y.py', 'w')\"", [], []],
    ['echo hi >> notes.md 2>/dev/null', [], ['notes.md']],
    ['head -n 50 src/app.ts; tail -f log/server.log', ['src/app.ts', 'log/server.log'], []],
    ['timeout 60 pytest tests/test_a.py', ['tests/test_a.py'], []],
    ['sudo FOO=1 cat /etc/hosts', ['/etc/hosts'], []],
    ['rm -f a.txt b.txt', [], ['a.txt', 'b.txt']],
    ["awk -F: '{print $1}' /etc/passwd", ['/etc/passwd'], []],
    ['tee -a build/report.txt < input.csv', ['input.csv'], ['build/report.txt']],
    ['git checkout -- src/a.ts src/b.ts', [], ['src/a.ts', 'src/b.ts']],
    ['cat "$FILE" ~/notes/*.md https://example.com/x.md', [], []],
  ])('%s', (command, read, written) => {
    expect(filesInShellCommand(command)).toEqual({ read, written });
  });

  it('drops here-document bodies: their lines are file content, not commands', () => {
    const command = "cat > /tmp/fix.py << 'EOF'\nimport os\nprint(open('x.py').read())\ncat secret.txt\nEOF\npython /tmp/fix.py";
    expect(filesInShellCommand(command)).toEqual({ read: ['/tmp/fix.py'], written: ['/tmp/fix.py'] });
  });

  it('reads SWE-agent commands', () => {
    expect(filesInShellCommand('create reproduce_bug.py')).toEqual({ read: [], written: ['reproduce_bug.py'] });
    expect(filesInShellCommand('open pydicom/pixel_data_handlers/numpy_handler.py 293')).toEqual({ read: ['pydicom/pixel_data_handlers/numpy_handler.py'], written: [] });
    expect(filesInShellCommand('search_file "PixelRepresentation" pydicom/dataset.py')).toEqual({ read: ['pydicom/dataset.py'], written: [] });
  });
});

describe('looksLikePath', () => {
  it.each([
    ['src/app.ts', true],
    ['Makefile', true],
    ['README.md', true],
    ['2.9.1', false],
    ['1.2.840.10008.1.2.1', false],
    ['-n', false],
    ['/dev/null', false],
    ['*.py', false],
    ['$HOME/x', false],
    ['hello', false],
  ])('%s → %s', (word, expected) => {
    expect(looksLikePath(word)).toBe(expected);
  });
});
