export interface PublishedPackage {
  name: string;
  dir: string;
  manifest: Record<string, unknown>;
}
export interface SmokeRuntime {
  name: string;
  node?: string;
  command(file: string): string[];
}
export interface SmokeResult {
  runtime: string;
  name: string;
  ok: boolean;
  code: number | string | null;
  output: string;
  figures: string;
  ms: number;
}
export function publishedPackages(repositoryRoot?: string): PublishedPackage[];
export function exampleFileFor(name: string, dir?: string): string;
export function preflight(packages: readonly { name: string; dir: string }[], dir?: string): string[];
export function peerPins(packages: readonly PublishedPackage[]): { pins: Record<string, string>; problems: string[] };
export function runtimeCommands(names: readonly string[]): SmokeRuntime[];
export function runExamples(options: {
  consumer: string;
  packages: readonly string[];
  runtimes: readonly SmokeRuntime[];
  engines?: Record<string, string | undefined>;
  log?: (line: string) => void;
  timeoutMs?: number;
  parallel?: number;
}): Promise<SmokeResult[]>;
export function differingResults(results: SmokeResult[]): string[];
