import { describe, expect, it } from 'vitest';
import { keyTerms, taskProblem, taskSection } from './task-check.ts';

const astroidTask = 'Consider the following PR description:\nastroid 2.9.1 breaks pylint with missing __init__.py: F0010: error while code parsing: Unable to load file __init__.py';
const airlineTask = "Hi, I'm having a bit of a situation with my flights and need to downgrade them from business to economy class. Can you assist me with that?";

describe('keyTerms', () => {
  it('puts identifiers, versions and paths before plain words, and drops stop words', () => {
    const terms = keyTerms(astroidTask);
    expect(terms.slice(0, 3).sort()).toEqual(['2.9.1', '__init__.py', 'f0010']);
    expect(terms).toContain('astroid');
    expect(terms).toContain('pylint');
    expect(terms).not.toContain('the');
    expect(terms).not.toContain('following');
  });

  it('finds the words of a plain-language request', () => {
    expect(keyTerms(airlineTask)).toEqual(expect.arrayContaining(['downgrade', 'business', 'economy', 'flights']));
    expect(keyTerms(airlineTask)).not.toContain("i'm");
  });

  it('ignores URLs and returns nothing for a task without content words', () => {
    expect(keyTerms('see https://example.com/a/b')).toEqual([]);
    expect(keyTerms('ok, go on')).toEqual([]);
  });
});

describe('taskSection', () => {
  it.each([
    ['## Task\nFix the bug\n## Done\nnothing', 'Fix the bug'],
    ['# Summary\n### 1. Task\nFix it\nin two lines\n### 2. Done\nx', 'Fix it\nin two lines'],
    ['**Task:** Fix the bug\n**Done:** x', 'Fix the bug'],
    ['**Task**\nFix the bug\n\n**Done**\nx', 'Fix the bug'],
    ['Task: Fix the bug\nDone: x', 'Fix the bug'],
    ['## Goal\nShip it', 'Ship it'],
  ])('reads %j', (summary, expected) => {
    expect(taskSection(summary)).toBe(expected);
  });

  it('is undefined without a Task heading, even when the word appears in prose', () => {
    expect(taskSection('## Done\nThe task was hard.\n## Next steps\nmore')).toBeUndefined();
  });
});

describe('taskProblem', () => {
  it('accepts a paraphrase that keeps the key terms', () => {
    const summary = '## Task\nDowngrading omar_davis_3817’s business-class flights to economy.\n## Done\nnone';
    expect(taskProblem(summary, airlineTask, 0.3)).toBeUndefined();
  });

  it('rejects a summary without a Task section, with an empty one, or about something else', () => {
    expect(taskProblem('## Done\nstuff', astroidTask, 0.3)).toBe('it has no Task section');
    expect(taskProblem('## Task\nnone\n## Done\nx', astroidTask, 0.3)).toBe('its Task section is empty');
    expect(taskProblem('## Task\nWrite a poem about the sea.\n## Done\nx', astroidTask, 0.3)).toMatch(
      /^its Task section mentions 0 of the task's \d+ key terms \(needs \d+; missing __init__\.py, 2\.9\.1, f0010, astroid/,
    );
  });

  it('only asks for a non-empty Task section at coverage 0', () => {
    expect(taskProblem('## Task\nSomething else entirely\n## Done\nx', astroidTask, 0)).toBeUndefined();
  });
});
