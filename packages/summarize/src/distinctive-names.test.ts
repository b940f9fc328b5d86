import { describe, expect, it } from 'vitest';
import { extractNames, forEachName } from './distinctive-names.ts';

describe('forEachName', () => {
  it('visits every occurrence of every distinctive name in order, the names extractNames counts', () => {
    const text = 'see astroid/modutils.py:123 and _get_spec; then astroid/modutils.py again at line 123';
    const visited: string[] = [];
    forEachName(text, (name) => visited.push(name));
    expect(visited).toEqual(['astroid/modutils.py', 'modutils.py', '123', '_get_spec', 'astroid/modutils.py', 'modutils.py', '123']);
    const counts = new Map<string, number>();
    for (const name of visited) counts.set(name, (counts.get(name) ?? 0) + 1);
    expect(extractNames(text)).toEqual(counts);
  });
});
