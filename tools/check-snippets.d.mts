/** The TypeScript blocks of a markdown text, each with the line its code starts on and its prelude. */
export function extractSnippets(markdown: string): { line: number; code: string; prelude: string }[];
/** The READMEs checked by default: the repository's and every package's. */
export function defaultReadmes(): string[];
/** Typechecks the snippets of the given READMEs; one `path:line:column: message` line per error. */
export function checkSnippets(readmes?: string[]): { snippets: number; errors: string[] };
