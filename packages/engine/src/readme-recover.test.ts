import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const packageRoot = join(import.meta.dirname, '..');

/** Type errors of a snippet compiled beside the package's sources, under the repository's strict settings. */
function typeErrors(snippet: string): string[] {
  const file = join(packageRoot, 'src', `.readme-snippet-${process.pid}.ts`);
  writeFileSync(file, snippet);
  try {
    const config = ts.getParsedCommandLineOfConfigFile(join(packageRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    const program = ts.createProgram([file], { ...config!.options, noEmit: true });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  } finally {
    rmSync(file, { force: true });
  }
}

describe('the README example of recover', () => {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const block = /On a provider error:\s*(?:<!--[\s\S]*?-->\s*)?```ts\n([\s\S]*?)```/.exec(readme)?.[1];

  it('typechecks under strict TypeScript (RecoverResult narrows on action)', () => {
    expect(block).toContain('manager.recover(');
    const declarations = [
      "import type { ErrorClassification, Message } from '@ctxkit/core';",
      "import type { ContextManager } from './index.ts';",
      'declare const manager: ContextManager;',
      'declare let history: Message[];',
      'declare let maxTokens: number;',
      'declare const error: unknown;',
      'declare const servingModel: string;',
      'declare function classifyError(error: unknown): ErrorClassification;',
      'export {};',
    ].join('\n');
    expect(typeErrors(`${declarations}\n${block}`)).toEqual([]);
  }, 60_000);

  it('would catch a use of a field the action does not have', () => {
    const wrong =
      "import type { ContextManager } from './index.ts';\ndeclare const manager: ContextManager;\nconst result = await manager.recover([], new Error('x'));\nconst n: number = result.maxOutputTokens;\nexport { n };\n";
    expect(typeErrors(wrong).join('\n')).toMatch(/maxOutputTokens/);
  }, 60_000);
});
