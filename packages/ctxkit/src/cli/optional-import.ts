/** Imports an optional peer by name at run time (its own module, so tests can stand in a missing one). */
export function importOptional(name: string): Promise<unknown> {
  return import(name);
}
