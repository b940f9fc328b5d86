export function enginesProblems(packages: readonly { name: string; dir: string; manifest: Record<string, unknown> }[], testedNode: readonly string[], floor: string): string[];
