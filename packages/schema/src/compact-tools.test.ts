import { describe, expect, it } from 'vitest';
import type { CompactionWarning } from './compaction-warning.ts';
import { compactTools, compactToolsChecked } from './compact-tools.ts';

const schema = {
  type: 'object',
  title: 'Input',
  properties: { path: { type: 'string', description: 'File to read. Relative to the root.', examples: ['a.ts'] } },
  required: ['path'],
};
const compactSchema = { type: 'object', properties: { path: { type: 'string', description: 'File to read' } }, required: ['path'] };
const description = 'Reads a file.\nUse it before editing.  \n';
const tidied = 'Reads a file.\nUse it before editing.';

describe('compactTools: shapes', () => {
  it('returns each tool in the shape it came in, other fields kept', () => {
    const tools = [
      { name: 'read', title: 'Read', description, inputSchema: schema, annotations: { readOnlyHint: true } },
      { type: 'function' as const, function: { name: 'read', description, parameters: schema, strict: false } },
      { type: 'function' as const, name: 'read', description, parameters: schema },
      { name: 'read', description, input_schema: schema, cache_control: { type: 'ephemeral' } },
      { name: 'read', description, parameters: schema },
      { type: 'web_search_preview' },
      { type: 'bash_20250124', name: 'bash' },
    ];
    // Five tools ending alike would have that ending said once; see the shared-ending tests.
    expect(compactTools(tools, { dedupeSharedEnding: false })).toEqual([
      { name: 'read', title: 'Read', description: tidied, inputSchema: compactSchema, annotations: { readOnlyHint: true } },
      { type: 'function', function: { name: 'read', description: tidied, parameters: compactSchema, strict: false } },
      { type: 'function', name: 'read', description: tidied, parameters: compactSchema },
      { name: 'read', description: tidied, input_schema: compactSchema, cache_control: { type: 'ephemeral' } },
      { name: 'read', description: tidied, parameters: compactSchema },
      { type: 'web_search_preview' },
      { type: 'bash_20250124', name: 'bash' },
    ]);
  });

  it('leaves out the optional MCP fields a Python client dumped as null, and keeps every field with a value', () => {
    const tools = [
      { name: 'quote', description: 'Gets a quote.', inputSchema: { type: 'object' }, annotations: null, title: null, outputSchema: null, execution: null, _meta: null },
      {
        name: 'versions',
        description: 'Lists versions.',
        inputSchema: { type: 'object' },
        annotations: { title: 'Versions', readOnlyHint: true, destructiveHint: null, idempotentHint: false, openWorldHint: null },
        vendorField: null,
      },
    ];
    expect(compactTools(tools)).toEqual([
      { name: 'quote', description: 'Gets a quote.', inputSchema: { type: 'object' } },
      { name: 'versions', description: 'Lists versions.', inputSchema: { type: 'object' }, annotations: { title: 'Versions', readOnlyHint: true }, vendorField: null },
    ]);
    expect(compactTools(tools, { dropNullMcpFields: false, dropDefaultMcpHints: false })).toEqual(tools);
    // Other shapes are not MCP's: their fields pass through as they are.
    const anthropic = [{ name: 'quote', description: 'Gets a quote.', input_schema: { type: 'object' }, annotations: null }];
    expect(compactTools(anthropic)).toEqual(anthropic);
  });

  it('leaves out MCP hints a host reads the same when absent, and keeps the ones that make it ask first', () => {
    const tool = (annotations: Record<string, unknown>) => ({ name: 'pods_list', description: 'Lists pods.', inputSchema: { type: 'object' }, annotations });
    const tools = [
      // A read-only tool: `destructiveHint` means nothing on it, and `false` is what absence reads as.
      tool({ title: 'Pods: List', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }),
      // A writing tool: its `destructiveHint: false` is not the default (true) and stays.
      tool({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }),
      // The worst-case defaults stay: a host asking first on `destructiveHint === true` keeps asking.
      tool({ readOnlyHint: false, destructiveHint: true, openWorldHint: true }),
      tool({ readOnlyHint: false, idempotentHint: false }),
    ];
    expect(compactTools(tools).map((compacted) => (compacted as { annotations?: unknown }).annotations)).toEqual([
      { title: 'Pods: List', readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      { destructiveHint: false, openWorldHint: false },
      { destructiveHint: true, openWorldHint: true },
      undefined,
    ]);
    expect(compactTools(tools)[3]).not.toHaveProperty('annotations');
    expect(compactTools(tools, { dropDefaultMcpHints: false })).toEqual(tools);
    // Not MCP's shape: an Anthropic tool's fields pass through.
    const anthropic = [{ name: 'pods_list', input_schema: { type: 'object' }, annotations: { readOnlyHint: false } }];
    expect(compactTools(anthropic)).toEqual(anthropic);
  });

  it("compacts an MCP tool's outputSchema by the input schema's rules, and keeps a broken one as it is", () => {
    const outputSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'FindResult',
      properties: { count: { type: 'integer', description: 'The number of documents found. Counted on the server.', default: 0 } },
      required: ['count'],
    };
    const tool = { name: 'find', description: 'Finds documents.', inputSchema: { type: 'object' }, outputSchema };
    const before = JSON.stringify(tool);
    expect(compactTools([tool])[0]).toEqual({ ...tool, outputSchema: { type: 'object', properties: { count: { type: 'integer', description: 'number of documents found' } }, required: ['count'] } });
    expect(JSON.stringify(tool)).toBe(before);
    expect(compactTools([tool], { compactOutputSchemas: false })[0]).toEqual(tool);
    const broken = { ...tool, outputSchema: { type: 'object', properties: { count: { $ref: '#/$defs/missing' } } } };
    const warnings: string[] = [];
    expect(compactTools([broken], { onWarning: (warning) => warnings.push(warning.message) })[0]).toEqual({ ...broken, outputSchema: broken.outputSchema });
    expect(warnings).toEqual([expect.stringMatching(/tool 0 \("find"\) at \/properties\/count\/\$ref: outputSchema: .*points nowhere/)]);
    expect(() => compactTools([broken], { onInvalid: 'throw' })).toThrow(/tool 0 \("find"\): outputSchema cannot be compacted: .*points nowhere/);
  });

  it('leaves out `execution` when it says only the default taskSupport, and `required: []` unless the tool is strict', () => {
    const tools = [
      { name: 'apps_list', inputSchema: { type: 'object', properties: {}, required: [] }, execution: { taskSupport: 'forbidden' } },
      { name: 'build', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      { name: 'deploy', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden', ttl: 60 } },
    ];
    expect(compactTools(tools)).toEqual([
      { name: 'apps_list', inputSchema: { type: 'object', properties: {} } },
      { name: 'build', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
      { name: 'deploy', inputSchema: { type: 'object' }, execution: { ttl: 60 } },
    ]);
    expect(compactTools(tools, { dropDefaultMcpHints: false, dropEmptyRequired: false })).toEqual(tools);
    const strict = { type: 'function' as const, function: { name: 'ping', parameters: { type: 'object', properties: {}, required: [], additionalProperties: false }, strict: true } };
    const loose = { type: 'function' as const, function: { ...strict.function, strict: false } };
    expect(compactTools([strict, loose]).map((tool) => tool.function.parameters)).toEqual([strict.function.parameters, { type: 'object', properties: {}, additionalProperties: false }]);
  });

  it('keeps tools without a schema or description as they are', () => {
    const tools = [
      { type: 'function' as const, function: { name: 'ping' } },
      { name: 'noop', inputSchema: { type: 'object' } },
    ];
    expect(compactTools(tools)).toEqual(tools);
  });

  it('never mutates the input list or its tools', () => {
    const tools = [{ name: 'read', description, inputSchema: schema }];
    const before = JSON.stringify(tools);
    const compacted = compactTools(tools);
    expect(JSON.stringify(tools)).toBe(before);
    expect(compacted[0]).not.toBe(tools[0]);
  });
});

describe('compactTools: tool descriptions', () => {
  const tools = [{ name: 'read', description: 'Reads a file. Use it before **editing**, never after.', inputSchema: { type: 'object' } }];

  it('keeps them whole by default, since they tell the model when to use the tool', () => {
    expect(compactTools(tools)[0]!.description).toBe('Reads a file. Use it before **editing**, never after.');
    expect(compactTools(tools, { tidyToolDescriptions: false })[0]!.description).toBe(tools[0]!.description);
  });

  it('writes a fenced JSON block on one line, unless tidying is off', () => {
    const withSchema = [{ name: 'list', description: 'Lists reports.\n```json\n{\n  "id": "string"\n}\n```', inputSchema: { type: 'object' } }];
    expect(compactTools(withSchema)[0]!.description).toBe('Lists reports.\n```json\n{"id": "string"}\n```');
    expect(compactTools(withSchema, { tidyToolDescriptions: false })[0]!.description).toBe(withSchema[0]!.description);
  });

  it('trims them to the first sentence when asked', () => {
    expect(compactTools(tools, { trimToolDescriptions: true })[0]!.description).toBe('Reads a file.');
  });
});

describe('compactTools: descriptions that restate where a parameter sits', () => {
  const zones = {
    name: 'list_zones',
    description: 'Lists zones.',
    inputSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', description: 'zone status' },
        direction: { type: 'string', description: 'Direction to order zones' },
        id: { type: 'string', description: 'account ID' },
        account: { type: 'object', properties: { id: { type: 'string', description: 'account ID' }, name: { type: 'string', description: 'domain name' } } },
        members: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', description: 'member ID' } } } },
      },
    },
  };

  it('drops what the tool name or an enclosing property already says, and keeps the rest', () => {
    const properties = (compactTools([zones])[0]!.inputSchema as { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }> }).properties;
    expect(properties.status!.description).toBeUndefined();
    expect(properties.account!.properties!.id!.description).toBeUndefined();
    expect((properties.members as { items: { properties: { id: { description?: string } } } }).items.properties.id.description).toBeUndefined();
    expect(properties.direction!.description).toBe('Direction to order zones');
    expect(properties.account!.properties!.name!.description).toBe('domain name');
    // A sibling's name is not an owner: the top-level `id` is not the account's.
    expect(properties.id!.description).toBe('account ID');
  });

  it('keeps them all with dropRedundantDescriptions off', () => {
    const properties = (compactTools([zones], { dropRedundantDescriptions: false })[0]!.inputSchema as { properties: Record<string, { description?: string }> }).properties;
    expect(properties.status!.description).toBe('zone status');
  });
});

describe('compactTools: a closing every description repeats', () => {
  const note = 'Note that the provided function is in Python 3 syntax.';
  const tool = (name: string, description: string) => ({ name, description, parameters: { type: 'object', properties: {} } });
  const set = [tool('area', `Calculate an area. ${note}`), tool('hypot', `Calculate the norm.\nIt is the hypotenuse. ${note}`), tool('roots', `Find the roots. ${note}`)];

  it('is said once, on the first tool, and reported', () => {
    const result = compactToolsChecked(set);
    expect(result.tools.map((entry) => entry.description)).toEqual([`Calculate an area. ${note}`, 'Calculate the norm.\nIt is the hypotenuse.', 'Find the roots.']);
    expect(result.sharedEnding).toBe(note);
    // Compacting again changes nothing: the ending is no longer on every tool.
    expect(compactTools(result.tools)).toEqual(result.tools);
  });

  it('takes every sentence the descriptions share at the end, never a whole description', () => {
    const two = `${note} Do not guess arguments.`;
    const tools = [tool('a', `Adds. ${two}`), tool('b', `Removes. ${two}`), tool('c', `Lists. ${two}`)];
    expect(compactToolsChecked(tools).sharedEnding).toBe(two);
    const whole = [tool('a', note), tool('b', `Removes. ${note}`), tool('c', `Lists. ${note}`)];
    expect(compactToolsChecked(whole).tools).toEqual(whole);
  });

  it('leaves the set alone when one tool lacks the ending, has no description, or there are only two', () => {
    for (const tools of [[...set, tool('sort', 'Sort a list.')], [...set, { name: 'bare', parameters: { type: 'object' } }], set.slice(0, 2)]) {
      const result = compactToolsChecked(tools);
      expect(result.sharedEnding).toBeUndefined();
      expect(result.tools).toEqual(tools);
    }
  });

  it('tidies what is left once the closing goes: indentation it hid, flush left after indented template literals', () => {
    const closing = 'NOTE: This server is deprecated. Tell the user to migrate.';
    // Each description an indented template literal with its own steps; the same note appended flush left.
    const indented = (what: string) => `\n    Gets ${what}.\n\n    Steps:\n    1. Ask for the ${what}.\n       - Use its URL, ${what}, if given.\n    \n\n${closing}`;
    const tidied = (what: string) => `Gets ${what}.\n\nSteps:\n1. Ask for the ${what}.\n   - Use its URL, ${what}, if given.`;
    const tools = [tool('logs', indented('build logs')), tool('tests', indented('test results')), tool('status', indented('pipeline status'))];
    const result = compactToolsChecked(tools);
    expect(result.sharedEnding).toBe(closing);
    expect(result.tools.map((entry) => entry.description)).toEqual([`${tidied('build logs')}\n\n${closing}`, tidied('test results'), tidied('pipeline status')]);
    expect(compactTools(result.tools)).toEqual(result.tools);
    // Kept as written, less the closing, when tidying is off.
    expect(compactTools(tools, { tidyToolDescriptions: false })[1]!.description).toBe(indented('test results').slice(0, -closing.length).trimEnd());
  });

  it('does not cut inside a sentence, and can be turned off', () => {
    const tools = [tool('a', 'Reads the file. Python 3 syntax.'), tool('b', 'Writes it in Python 3 syntax.'), tool('c', 'Lists all. Python 3 syntax.')];
    expect(compactTools(tools)).toEqual(tools);
    expect(compactTools(set, { dedupeSharedEnding: false })).toEqual(set);
  });
});

describe('compactTools: bad input', () => {
  it('passes bad tools through unchanged with a warning naming the tool, and compacts the rest', () => {
    const warnings: CompactionWarning[] = [];
    const broken = { name: 'broken', inputSchema: { properties: { a: { $ref: '#/definitions/missing' } } } };
    const tools = [42, { description: 'no name', inputSchema: {} }, broken, { name: 'fine', inputSchema: schema }] as unknown as Record<string, unknown>[];
    const compacted = compactTools(tools, { onWarning: (warning) => warnings.push(warning) });
    expect(compacted.slice(0, 3)).toEqual(tools.slice(0, 3));
    expect(compacted[2]).toBe(broken);
    expect(compacted[3]).toEqual({ name: 'fine', inputSchema: compactSchema });
    expect(warnings.map((warning) => warning.message)).toEqual([
      '[ctxkit:schema] tool 0: is not a tool definition: expected { name, inputSchema } (MCP), { type: "function", function } (OpenAI) or { name, input_schema } (Anthropic); passed through unchanged',
      '[ctxkit:schema] tool 1: has no string name (mcp shape); passed through unchanged',
      '[ctxkit:schema] tool 2 ("broken") at /properties/a/$ref: "#/definitions/missing" points nowhere: the root has no "definitions"; passed through unchanged',
    ]);
  });

  it('reports per-tool outcomes', () => {
    const result = compactToolsChecked([{ name: 'a', inputSchema: 'nope' }, { type: 'web_search' }, { name: 'b', inputSchema: {} }]);
    expect(result.outcomes).toEqual(['passed-through', 'provider-defined', 'compacted']);
    expect(result.warnings).toHaveLength(1);
  });

  it('throws a typed error for a bad tool when asked to', () => {
    expect(() => compactTools([{ name: 'a', inputSchema: { items: 'x' } }], { onInvalid: 'throw' })).toThrow(
      '[ctxkit:schema] tool 0 ("a") cannot be compacted: /items: must be a schema or an array of schemas, got the string "x"',
    );
  });

  it('throws for a list that is not an array, pointing at normalizeToolsInput', () => {
    expect(() => compactTools({ tools: [] } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/takes an array of tools, got object; .* use normalizeToolsInput first/) }),
    );
  });
});

describe('compactTools: a parameter many tools declare alike (dedupeSharedParameters)', () => {
  const owner = { type: 'string', description: 'Repository owner' };
  const tool = (name: string, properties: Record<string, unknown>) => ({ name, description: `${name}.`, inputSchema: { type: 'object', properties, required: Object.keys(properties) } });
  const tools = [
    tool('get_issue', { owner, number: { type: 'integer', description: 'Issue number to read' } }),
    tool('list_issues', { owner }),
    tool('create_issue', { owner, body: { type: 'string', description: 'Text in Markdown' } }),
    // Same name, another description: not the same parameter.
    tool('fork', { owner: { type: 'string', description: 'Account to fork to' } }),
  ];

  it('is off by default', () => {
    expect(compactToolsChecked(tools).sharedParameters).toBeUndefined();
    expect(compactTools(tools)).toEqual(compactTools(tools, { dedupeSharedParameters: false }));
  });

  it('describes it on the first tool only, and says what it shared', () => {
    const result = compactToolsChecked(tools, { dedupeSharedParameters: true });
    const owners = result.tools.map((compacted) => (compacted as { inputSchema: { properties: Record<string, unknown> } }).inputSchema.properties.owner);
    expect(owners).toEqual([owner, { type: 'string' }, { type: 'string' }, { type: 'string', description: 'Account to fork to' }]);
    expect(result.sharedParameters).toEqual([{ name: 'owner', description: 'Repository owner', tools: [0, 1, 2] }]);
    // Everything else stays as the default mode writes it.
    expect((result.tools[2] as { inputSchema: { properties: Record<string, unknown> } }).inputSchema.properties.body).toEqual({ type: 'string', description: 'Text in Markdown' });
  });

  it('needs three tools alike, and leaves a parameter a $ref points into', () => {
    expect(compactToolsChecked(tools.slice(1, 3), { dedupeSharedParameters: true }).sharedParameters).toBeUndefined();
    const pointed = { ...tools[2]!, inputSchema: { ...tools[2]!.inputSchema, properties: { owner, copy: { $ref: '#/properties/owner' } } } };
    const result = compactToolsChecked([tools[0]!, tools[1]!, pointed], { dedupeSharedParameters: true });
    expect(result.sharedParameters).toBeUndefined();
  });

  it('works on OpenAI-shaped tools too', () => {
    const openai = tools.slice(0, 3).map(({ name, inputSchema }) => ({ type: 'function' as const, function: { name, parameters: inputSchema } }));
    const result = compactToolsChecked(openai, { dedupeSharedParameters: true });
    expect(result.tools.map((compacted) => (compacted.function.parameters as { properties: Record<string, unknown> }).properties.owner)).toEqual([owner, { type: 'string' }, { type: 'string' }]);
  });
});

describe('compactTools: data keys', () => {
  it('keeps an MCP tool field named __proto__ as data', () => {
    const [tool] = JSON.parse('[{"name":"t","inputSchema":{"type":"object"},"__proto__":{"x":1},"annotations":{"readOnlyHint":false}}]') as Record<string, unknown>[];
    const [compacted] = compactTools([tool!]) as Record<string, unknown>[];
    expect(Object.hasOwn(compacted!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(compacted)).toBe(Object.prototype);
    expect(compacted).not.toHaveProperty('annotations');
  });
});

describe('compactTools: an MCP title said twice', () => {
  it("says an MCP tool's display name once when its title and annotations.title agree", () => {
    const tool = (fields: Record<string, unknown>) => ({ name: 'VPS_getVirtualMachinesV1', description: 'Lists virtual machines.', inputSchema: { type: 'object' }, ...fields });
    const tools = [
      tool({ title: 'Get virtual machines', annotations: { title: 'Get virtual machines', readOnlyHint: true } }),
      // Different words, or only one of the two: each stays, as the client would show different names without it.
      tool({ title: 'Get virtual machines', annotations: { title: 'Get VMs', readOnlyHint: true } }),
      tool({ title: 'Get virtual machines', annotations: { readOnlyHint: true } }),
      tool({ annotations: { title: 'Get virtual machines' } }),
    ];
    const compacted = compactTools(tools) as Record<string, unknown>[];
    // What MCP shows (title, else annotations.title, else name) and what older clients show (annotations.title) are unchanged.
    const annotationsTitle = (mcpTool: Record<string, unknown>) => (mcpTool.annotations as { title?: string } | undefined)?.title;
    const shown = (mcpTool: Record<string, unknown>) => mcpTool.title ?? annotationsTitle(mcpTool) ?? mcpTool.name;
    expect(compacted.map(shown)).toEqual(tools.map(shown));
    expect(compacted.map(annotationsTitle)).toEqual(tools.map(annotationsTitle));
    expect(compacted.map((mcpTool) => 'title' in mcpTool)).toEqual([false, true, true, false]);
    expect(compactTools(tools, { dropDuplicateTitle: false })[0]).toHaveProperty('title', 'Get virtual machines');
    // Not MCP's shape: an OpenAI tool's fields pass through.
    const openai = [{ type: 'function', function: { name: 'vms', parameters: { type: 'object' } }, title: 'VMs', annotations: { title: 'VMs' } }];
    expect(compactTools(openai)).toEqual(openai);
  });
});
