/** The TypeScript blocks of a markdown text, each with the line its code starts on and its prelude. */
export function extractSnippets(markdown: string): { line: number; code: string; prelude: string }[];
/** The READMEs checked by default: the repository's and every package's. */
export function defaultReadmes(): string[];
/** The READMEs still allowed a hidden snippet prelude (repository-relative paths). */
export const readmesWithPreludes: string[];
/** Typechecks the snippets of the given READMEs; one `path:line:column: message` line per error, a hidden prelude outside `preludesAllowedIn` included. */
export function checkSnippets(readmes?: string[], options?: { moduleResolution?: 'bundler' | 'nodenext'; preludesAllowedIn?: string[] }): { snippets: number; errors: string[] };
/** The packages a package README's snippets import that none of its install lines names; one `path:line:1: message` per package. */
export function checkInstallLines(readmes?: string[]): string[];
