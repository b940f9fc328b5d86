export function packageFiles(input: { name: string; description: string; deps?: string[] }): Record<string, string>;
