export function allowedFor(name: string): string[] | undefined;
export function importsOf(text: string): string[];
export function findViolations(input: { name: string; root: string; dependencies: Record<string, string>; files: { path: string; text: string }[] }): string[];
