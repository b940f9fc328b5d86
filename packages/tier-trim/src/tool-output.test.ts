import { describe, expect, it } from 'vitest';
import { errorLines, exitStatus } from './tool-output.ts';

describe('exitStatus', () => {
  it.each([
    ['<returncode>1</returncode>\n<output>\nboom\n</output>', 1],
    ['Hello World from Perl!///PROCESS-DONE:0:PROCESS-DONE///\n(Open file: n/a)', 0],
    ['Your command ran successfully and did not produce any output.\n(Open file: n/a)', 0],
    ['npm ERR! Test failed.\nProcess exited with code 2', 2],
    ['Exit code: 127\nbash: foo: command not found', 127],
    ['a log\nthat mentions exit code 1\nin the middle\nof\nmany\nlines', undefined],
    ['{"reservation_id": "JG7FMM"}', undefined],
  ])('%j → %s', (result, expected) => {
    expect(exitStatus(result)).toBe(expected);
  });
});

describe('errorLines', () => {
  it('takes the exception line of a Python traceback', () => {
    const result = `<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "/testbed/reproduce_issue.py", line 22, in <module>\n    django.setup()\n  File "/testbed/django/utils/deprecation.py", line 5, in <module>\n    from asgiref.sync import sync_to_async\nModuleNotFoundError: No module named 'asgiref'\n</output>`;
    expect(errorLines(result, 1)).toEqual(["ModuleNotFoundError: No module named 'asgiref'"]);
  });

  it('takes error lines from failed and status-less results', () => {
    expect(errorLines('Error: reservation not found', undefined)).toEqual(['Error: reservation not found']);
    expect(
      errorLines("Your proposed edit has introduced new syntax error(s).\n\nERRORS:\n- E999 SyntaxError: unmatched ']'\n281:        raise AttributeError(\n282:    except KeyError: pass", undefined),
    ).toEqual(["- E999 SyntaxError: unmatched ']'"]);
    expect(errorLines('fatal: not a git repository (or any of the parent directories): .git', 128)).toEqual(['fatal: not a git repository (or any of the parent directories): .git']);
  });

  it('ignores error words in the output of a command that succeeded', () => {
    expect(errorLines('<returncode>0</returncode>\nsrc/app.py:12:    raise ValueError: bad\nError: this is a string in a test', 0)).toEqual([]);
  });

  it('keeps at most the limit, each line cut to 200 characters', () => {
    const lines = errorLines(Array.from({ length: 10 }, (_, index) => `Error: ${index} ${'x'.repeat(300)}`).join('\n'), 1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toHaveLength(200);
    expect(lines[0]!.endsWith('…')).toBe(true);
  });
});
