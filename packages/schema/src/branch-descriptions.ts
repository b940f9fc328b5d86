import { isRecord } from './schema-keywords.ts';

/**
 * Says a property's description once per union: in the branches of an `anyOf` / `oneOf` (already
 * compacted), a property that an earlier branch described with the same text loses its copy. Generators
 * of request-body unions (OpenAPI's `oneOf` bodies, zod discriminated unions) repeat every shared field
 * in each branch; the model reads the branches in order, so the first copy tells it what the field is.
 * Descriptions are annotations: no validation verdict changes. `isReferenced(path)` says whether a
 * `$ref` points at or into a branch (its index relative to the union, as `/1`); such a branch stays
 * whole, since it is also read from elsewhere.
 * @example
 * dedupeBranchDescriptions([
 *   { properties: { id: { type: 'string', description: 'Queue id' }, a: { type: 'number' } } },
 *   { properties: { id: { type: 'string', description: 'Queue id' }, b: { type: 'number' } } },
 * ]) // the second branch's `id` is { type: 'string' }
 */
export function dedupeBranchDescriptions(branches: readonly unknown[], isReferenced: (path: string) => boolean = () => false): unknown[] {
  const said = new Map<string, string>();
  return branches.map((branch, index) => {
    if (!isRecord(branch) || !isRecord(branch.properties)) return branch;
    const referenced = isReferenced(`/${index}`);
    let changed = false;
    const properties = Object.fromEntries(
      Object.entries(branch.properties).map(([name, property]) => {
        if (!isRecord(property) || typeof property.description !== 'string') return [name, property];
        const earlier = said.get(name);
        if (earlier === undefined) said.set(name, property.description);
        if (earlier !== property.description || referenced) return [name, property];
        changed = true;
        const { description: _said, ...rest } = property;
        return [name, rest];
      }),
    );
    return changed ? { ...branch, properties } : branch;
  });
}
