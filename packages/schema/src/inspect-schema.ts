import { expectsSchemaValue, isRecord, pointerOf, type SchemaPath, schemaChildren } from './schema-keywords.ts';

/** One problem found in a schema, at a JSON Pointer inside it. */
export interface SchemaIssue {
  /** JSON Pointer from the schema root: `/properties/query/$ref`; empty for the root itself. */
  path: string;
  problem: string;
  /**
   * `error`: compaction cannot be trusted on this schema, so it is passed through (or thrown).
   * `warning`: compaction is still safe (an external `$ref` it does not follow, for example).
   */
  severity: 'error' | 'warning';
}

/** What {@link inspectSchema} found: problems, and the places local `$ref`s point at. */
export interface SchemaInspection {
  issues: SchemaIssue[];
  /** Every JSON Pointer on the way to a `$ref` target, root excluded: `/$defs`, `/$defs/node`. Compaction keeps these verbatim. */
  referencedPaths: ReadonlySet<string>;
}

/** Options for {@link inspectSchema}. */
export interface InspectSchemaOptions {
  /** Deepest JSON nesting accepted; deeper schemas are reported rather than risk the call stack. @default 256 */
  maxDepth?: number;
}

const defaultBase = 'https://ctxkit.invalid/schema.json';

/** A path as a linked list from the leaf, so a deep walk does not copy a growing array at every level. */
interface PathLink {
  parent: PathLink | undefined;
  segment: string | number;
  depth: number;
}

function extend(parent: PathLink | undefined, ...segments: (string | number)[]): PathLink | undefined {
  let link = parent;
  for (const segment of segments) link = { parent: link, segment, depth: (link?.depth ?? 0) + 1 };
  return link;
}

function pathOf(link: PathLink | undefined): (string | number)[] {
  const segments: (string | number)[] = [];
  for (let cursor = link; cursor; cursor = cursor.parent) segments.push(cursor.segment);
  return segments.reverse();
}

interface Resource {
  path: SchemaPath;
  node: unknown;
  anchors: Map<string, SchemaPath>;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}...` : value)}`;
  return `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}

/** Finds cycles, values JSON cannot hold, and nesting past `maxDepth`, without recursion. */
function checkJsonValue(root: unknown, maxDepth: number): SchemaIssue | undefined {
  // Depth-first with an explicit stack; `exit` frames take an object off the ancestor set, so a
  // shared (diamond) sub-object is fine and only a true cycle is reported.
  type Frame = { kind: 'enter'; value: unknown; path: PathLink | undefined } | { kind: 'exit'; value: object };
  const stack: Frame[] = [{ kind: 'enter', value: root, path: undefined }];
  const ancestors = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'exit') {
      ancestors.delete(frame.value);
      continue;
    }
    const { value, path } = frame;
    const kind = typeof value;
    if (kind === 'function' || kind === 'symbol' || kind === 'bigint') {
      return { path: pointerOf(pathOf(path)), problem: `holds ${describeValue(value)}, which is not JSON data`, severity: 'error' };
    }
    if (kind === 'number' && !Number.isFinite(value)) {
      return { path: pointerOf(pathOf(path)), problem: `holds ${String(value)}, which is not JSON data`, severity: 'error' };
    }
    if (value === null || kind !== 'object') continue;
    const object = value as object;
    if (ancestors.has(object)) return { path: pointerOf(pathOf(path)), problem: 'refers back to an object that contains it (a cycle); a schema must be a JSON tree', severity: 'error' };
    if ((path?.depth ?? 0) > maxDepth) return { path: `${pointerOf(pathOf(path).slice(0, 8))}/...`, problem: `is nested more than ${maxDepth} levels deep`, severity: 'error' };
    ancestors.add(object);
    stack.push({ kind: 'exit', value: object });
    const entries: [string | number, unknown][] = Array.isArray(object) ? object.map((item, index) => [index, item]) : Object.entries(object);
    for (const [key, child] of entries) if (child !== undefined) stack.push({ kind: 'enter', value: child, path: extend(path, key) });
  }
  return undefined;
}

function decodePointer(fragment: string): string[] | undefined {
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  try {
    return fragment
      .slice(1)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return undefined;
  }
}

function walkPointer(node: unknown, segments: readonly string[]): { found: boolean; path: string[] } {
  let current = node;
  const walked: string[] = [];
  for (const segment of segments) {
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < current.length) current = current[Number(segment)];
    else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return { found: false, path: walked };
    walked.push(segment);
  }
  return { found: true, path: walked };
}

function resolveUri(reference: string, base: string): URL | undefined {
  try {
    return new URL(reference, base);
  } catch {
    return undefined;
  }
}

/**
 * Checks that a schema can be compacted safely and collects where its local `$ref`s point.
 * Never throws and never recurses: a cycle, a non-JSON value or a 100,000-level nesting comes back
 * as an issue. Errors: the root or a subschema is not an object or boolean, a keyword that holds
 * subschemas holds something else, a cycle, a `$ref` into the schema that points nowhere.
 * Warnings: a `$ref` to another document (not followed; compaction leaves it as it is).
 * @example
 * ```ts
 * inspectSchema({ properties: { a: { $ref: '#/$defs/missing' } } }).issues;
 * // [{ path: '/properties/a/$ref', problem: '"#/$defs/missing" points nowhere: ...', severity: 'error' }]
 * ```
 */
export function inspectSchema(schema: unknown, options: InspectSchemaOptions = {}): SchemaInspection {
  const referencedPaths = new Set<string>();
  if (typeof schema === 'boolean') return { issues: [], referencedPaths };
  if (!isRecord(schema)) {
    return { issues: [{ path: '', problem: `a schema must be an object or a boolean, got ${describeValue(schema)}`, severity: 'error' }], referencedPaths };
  }
  const jsonIssue = checkJsonValue(schema, options.maxDepth ?? 256);
  if (jsonIssue) return { issues: [jsonIssue], referencedPaths };

  const issues: SchemaIssue[] = [];
  const resources = new Map<string, Resource>();
  const references: { reference: string; base: string; path: SchemaPath; keyword: string }[] = [];
  const rootResource: Resource = { path: [], node: schema, anchors: new Map() };
  resources.set(defaultBase, rootResource);

  // Schema-aware walk: only subschema positions, so a property named "$ref" or "$id" is not mistaken for a keyword.
  const stack: { node: unknown; link: PathLink | undefined; base: string; resource: Resource }[] = [{ node: schema, link: undefined, base: defaultBase, resource: rootResource }];
  while (stack.length > 0) {
    const { node, link, base: parentBase, resource: parentResource } = stack.pop()!;
    if (typeof node === 'boolean') continue;
    // Paths are built only for the few nodes that need one (issues, $id, anchors, $ref).
    const path = () => pathOf(link);
    if (!isRecord(node)) {
      issues.push({ path: pointerOf(path()), problem: `a subschema must be an object or a boolean, got ${describeValue(node)}`, severity: 'error' });
      continue;
    }
    let base = parentBase;
    let resource = parentResource;
    const id = node.$id;
    if (typeof id === 'string' && id !== '') {
      if (id.startsWith('#')) {
        // draft-07 plain-name fragment: `$id: "#name"` is an anchor.
        parentResource.anchors.set(id.slice(1), path());
      } else {
        const resolved = resolveUri(id, parentBase);
        if (resolved) {
          const anchor = resolved.hash.slice(1);
          resolved.hash = '';
          base = resolved.href;
          resource = { path: path(), node, anchors: new Map() };
          resources.set(base, resource);
          if (anchor !== '') resource.anchors.set(anchor, resource.path);
        }
      }
    }
    for (const anchorKeyword of ['$anchor', '$dynamicAnchor']) {
      const anchor = node[anchorKeyword];
      if (typeof anchor === 'string' && anchor !== '') resource.anchors.set(anchor, path());
    }
    for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef']) {
      const reference = node[keyword];
      if (reference === undefined) continue;
      if (typeof reference !== 'string') {
        issues.push({ path: pointerOf([...path(), keyword]), problem: `must be a URI string, got ${describeValue(reference)}`, severity: 'error' });
      } else {
        references.push({ reference, base, path: path(), keyword });
      }
    }
    for (const [keyword, value] of Object.entries(node)) {
      const expected = expectsSchemaValue(keyword);
      if (!expected || value === undefined) continue;
      const bad =
        (expected === 'array' && !Array.isArray(value)) ||
        (expected === 'map' && !isRecord(value)) ||
        (expected === 'schema' && !isRecord(value) && typeof value !== 'boolean') ||
        (expected === 'items' && !isRecord(value) && typeof value !== 'boolean' && !Array.isArray(value));
      if (bad) {
        const wanted = { array: 'an array of schemas', map: 'an object of schemas', schema: 'a schema', items: 'a schema or an array of schemas' }[expected];
        issues.push({ path: pointerOf([...path(), keyword]), problem: `must be ${wanted}, got ${describeValue(value)}`, severity: 'error' });
      }
    }
    const children = schemaChildren(node);
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!;
      if (child.value === undefined) continue;
      stack.push({ node: child.value, link: extend(link, ...child.segments), base, resource });
    }
  }

  for (const { reference, base, path, keyword } of references) {
    const where = pointerOf([...path, keyword]);
    const resolved = resolveUri(reference, base);
    if (!resolved) {
      issues.push({ path: where, problem: `${JSON.stringify(reference)} is not a valid URI reference`, severity: 'error' });
      continue;
    }
    const fragment = resolved.hash.startsWith('#') ? resolved.hash.slice(1) : resolved.hash;
    resolved.hash = '';
    const resource = resources.get(resolved.href);
    if (!resource) {
      issues.push({ path: where, problem: `${JSON.stringify(reference)} points to another document; it is not followed (left as it is)`, severity: 'warning' });
      continue;
    }
    let targetPath: readonly (string | number)[] | undefined;
    const segments = decodePointer(fragment);
    if (segments) {
      const walked = walkPointer(resource.node, segments);
      if (walked.found) targetPath = [...resource.path, ...walked.path];
      else {
        const reached = walked.path.length === 0 ? 'the root' : pointerOf(walked.path);
        issues.push({
          path: where,
          problem: `${JSON.stringify(reference)} points nowhere: ${reached} has no ${JSON.stringify(segments[walked.path.length])}`,
          severity: 'error',
        });
        continue;
      }
    } else {
      let anchorName = fragment;
      try {
        anchorName = decodeURIComponent(fragment);
      } catch {
        // An undecodable fragment is looked up as written, and reported as missing below if absent.
      }
      targetPath = resource.anchors.get(anchorName);
      if (!targetPath) {
        issues.push({ path: where, problem: `${JSON.stringify(reference)} points nowhere: no $anchor or $id named ${JSON.stringify(anchorName)}`, severity: 'error' });
        continue;
      }
    }
    for (let length = 1; length <= targetPath.length; length++) referencedPaths.add(pointerOf(targetPath.slice(0, length)));
  }
  return { issues, referencedPaths };
}
