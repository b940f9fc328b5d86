import { describe, expect, it } from 'vitest';
import { defaultStubText, describeArguments, groupDigits, looksLikeStub } from './stub-text.ts';

describe('describeArguments', () => {
  it('picks the key argument of common tools', () => {
    expect(describeArguments('{"path":"src/app.ts"}')).toBe('src/app.ts');
    expect(describeArguments('{"file_path":"/repo/README.md","limit":200}')).toBe('/repo/README.md');
    expect(describeArguments('{"pattern":"loadConfig","path":"src"}')).toBe('loadConfig');
    expect(describeArguments('{"query":"react useEffect cleanup","max_results":5}')).toBe('react useEffect cleanup');
    expect(describeArguments('{"url":"https://example.com/docs"}')).toBe('https://example.com/docs');
  });

  it('squeezes a long multi-line command into one line of at most 60 characters', () => {
    const command = "cd /testbed && cat <<'EOF' > reproduce.py\nimport astroid\nprint(astroid.__version__)\nEOF\npython reproduce.py";
    const described = describeArguments(JSON.stringify({ command }));
    expect(described).toBe("cd /testbed && cat <<'EOF' > reproduce.py import astroid pr…");
    expect(described.length).toBe(60);
  });

  it('falls back to the first values, or the raw text', () => {
    expect(describeArguments('{"origin":"SFO","destination":"JFK","date":"2024-05-16"}')).toBe('SFO JFK 2024-05-16');
    expect(describeArguments('{"flights":[{"id":1}]}')).toBe('');
    expect(describeArguments('not json at all')).toBe('not json at all');
    expect(describeArguments('"just a string"')).toBe('just a string');
    expect(describeArguments(undefined)).toBe('');
    expect(describeArguments('  ')).toBe('');
  });
});

describe('defaultStubText', () => {
  it('writes the stub the model sees', () => {
    expect(defaultStubText({ handle: 'r7', number: 7, toolName: 'read_file', target: 'src/app.ts', tokens: 12_480, images: 0 })).toBe(
      '[tool result 7 archived: read_file src/app.ts, 12,480 tokens; restore with restore_tool_result("r7")]',
    );
    expect(defaultStubText({ handle: 'r8', number: 8, toolName: 'browser', target: '', tokens: 900, images: 2 })).toBe(
      '[tool result 8 archived: browser, 900 tokens and 2 images; restore with restore_tool_result("r8")]',
    );
  });

  it('is recognised as a stub, and ordinary output is not', () => {
    expect(looksLikeStub(defaultStubText({ handle: 'r1', number: 1, toolName: 'bash', target: 'ls', tokens: 100, images: 0 }))).toBe(true);
    expect(looksLikeStub('[tool result 1 archived: bash ls, 100 tokens]')).toBe(false);
    expect(looksLikeStub('total 0\n')).toBe(false);
  });
});

describe('groupDigits', () => {
  it('groups thousands with commas whatever the locale', () => {
    expect([groupDigits(0), groupDigits(999), groupDigits(1_000), groupDigits(12_480), groupDigits(1_234_567)]).toEqual(['0', '999', '1,000', '12,480', '1,234,567']);
  });
});
