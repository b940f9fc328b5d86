export interface RuntimeSpec {
  package: string;
  version: string;
  bin: string;
  via?: string;
}
export function readRuntimes(): Record<string, RuntimeSpec>;
export function runtimesDir(): string;
export function installRuntime(name: string, spec: RuntimeSpec, dir?: string): string;
