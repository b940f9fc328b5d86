import { isRecord } from './schema-keywords.ts';

/** A parameter several tools declare word for word, now described on the first of them only. */
export interface SharedParameter {
  name: string;
  description: string;
  /** Positions (in the list given to `compactTools`) of the tools that declare it; the first keeps the description. */
  tools: number[];
}

/** How many tools must say the same thing before the set-wide steps say it once (shared endings, shared parameters). */
export const minToolsSharing = 3;

/** Whether any `$ref` in a schema points into the given top-level property (then its text stays where it is). */
function referencesProperty(schema: unknown, name: string): boolean {
  const target = `#/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  const seen = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(seen);
    if (!isRecord(value)) return false;
    return Object.entries(value).some(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? inner === target || inner.startsWith(`${target}/`) : seen(inner)));
  };
  return seen(schema);
}

/**
 * Finds the top-level parameters that at least three schemas declare identically (same name, same
 * compacted schema, description included) and returns the schemas with the description kept on the first
 * declaration only, and what was shared. Schemas are given by tool position; `undefined` skips a tool.
 */
export function describeSharedParametersOnce(schemas: readonly unknown[]): { schemas: unknown[]; shared: SharedParameter[] } {
  const groups = new Map<string, SharedParameter>();
  schemas.forEach((schema, index) => {
    if (!isRecord(schema) || !isRecord(schema.properties)) return;
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isRecord(property) || typeof property.description !== 'string' || referencesProperty(schema, name)) continue;
      const key = JSON.stringify([name, property]);
      const group = groups.get(key) ?? { name, description: property.description, tools: [] };
      group.tools.push(index);
      groups.set(key, group);
    }
  });
  const shared = [...groups.values()].filter((group) => group.tools.length >= minToolsSharing);
  const out = [...schemas];
  for (const group of shared) {
    for (const index of group.tools.slice(1)) {
      const schema = out[index] as Record<string, unknown>;
      const properties = schema.properties as Record<string, unknown>;
      const { description: _said, ...rest } = properties[group.name] as Record<string, unknown>;
      out[index] = { ...schema, properties: { ...properties, [group.name]: rest } };
    }
  }
  return { schemas: out, shared };
}
