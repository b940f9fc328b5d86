import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactTools } from './compact-tools.ts';
import { moveDocstringArgs } from './docstring-args.ts';

const stateSchema = { type: 'object', properties: { state: { type: 'string' } }, required: ['state'] };

describe('moveDocstringArgs', () => {
  it('moves an Args section of a raw docstring (as the MCP Python SDK sends it) onto the parameters', () => {
    const description = 'Get weather alerts for a US state.\n\n    Args:\n        state: Two-letter US state code (e.g. CA, NY)\n    ';
    expect(moveDocstringArgs(description, stateSchema)).toEqual({
      description: 'Get weather alerts for a US state.',
      schema: { type: 'object', properties: { state: { type: 'string', description: 'Two-letter US state code (e.g. CA, NY)' } }, required: ['state'] },
    });
  });

  it('keeps the sections around it, joins continuation lines and drops a type-only note', () => {
    const description = [
      'Search the catalog.',
      '',
      'Args:',
      '    query (str): Free-text search terms,',
      '        matched against names.',
      '    limit (int, optional): How many results.',
      '',
      'Returns:',
      '    A list of products.',
    ].join('\n');
    const schema = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } };
    const moved = moveDocstringArgs(description, schema);
    expect(moved?.description).toBe('Search the catalog.\n\nReturns:\n    A list of products.');
    expect(moved?.schema.properties).toEqual({
      query: { type: 'string', description: 'Free-text search terms, matched against names.' },
      limit: { type: 'integer', description: 'How many results.' },
    });
  });

  it('moves a Markdown list under a Parameters: header, up to the blank line that ends it', () => {
    const description = 'Send input to a process.\n\nPARAMETERS:\n- pid: Process ID returned by start_process\n- **input**: Text to send\n  (one line).\n\nReturns the output.';
    const schema = { type: 'object', properties: { pid: { type: 'number' }, input: { type: 'string' } } };
    const moved = moveDocstringArgs(description, schema);
    expect(moved?.description).toBe('Send input to a process.\n\nReturns the output.');
    expect(moved?.schema.properties).toEqual({
      pid: { type: 'number', description: 'Process ID returned by start_process' },
      input: { type: 'string', description: 'Text to send (one line).' },
    });
  });

  it('drops an entry that repeats the description the parameter already has', () => {
    const schema = { type: 'object', properties: { state: { type: 'string', description: 'Two-letter state code.' } } };
    expect(moveDocstringArgs('Alerts.\n\nArgs:\n    state: two-letter state code\n', schema)).toEqual({ description: 'Alerts.', schema });
  });

  it.each([
    ['an entry names no parameter', 'Alerts.\n\nArgs:\n    state: Code.\n    region: Region.\n'],
    ['a parameter already says something else', 'Alerts.\n\nArgs:\n    state: Code.\n', { state: { type: 'string', description: 'Where.' } }],
    ['a note states a default', 'Alerts.\n\nArgs:\n    state (str, default "CA"): Code.\n'],
    ['a line in the section is not an entry', 'Alerts.\n\nArgs:\n    state: Code.\n    - Pass the code in upper case.\n'],
    ['a list goes on with prose', 'Alerts.\n\nParameters:\n- state: Code.\nPass it in upper case.\n'],
    ['an entry has no text', 'Alerts.\n\nArgs:\n    state:\n'],
    ['an entry repeats', 'Alerts.\n\nArgs:\n    state: Code.\n    state: Again.\n'],
    ['a numpy entry names no parameter', 'Alerts.\n\nParameters\n----------\nstate : str\n    Code.\nregion : str\n    Region.\n'],
    ['a numpy type states a default', 'Alerts.\n\nParameters\n----------\nstate : str, default "CA"\n    Code.\n'],
    ['a numpy entry has no text', 'Alerts.\n\nParameters\n----------\nstate : str\n'],
    ['a numpy line is not an entry', 'Alerts.\n\nParameters\n----------\nstate : str\n    Code.\nPass it in upper case.\n'],
    ['a Sphinx field names no parameter', 'Alerts.\n\n:param state: Code.\n:param region: Region.\n'],
    ['a Sphinx type names no parameter field', 'Alerts.\n\n:param state: Code.\n:type region: str\n'],
    ['a Sphinx type says more than a type', 'Alerts.\n\n:param state: Code.\n:type state: str, default "CA"\n'],
    ['the section is the first line', 'Args:\n    state: Code.\n'],
    ['there is no section', 'Alerts for a state: pass its code.'],
  ])('leaves both alone when %s', (_case, description, properties: Record<string, unknown> = { state: { type: 'string' } }) => {
    expect(moveDocstringArgs(description, { type: 'object', properties })).toBeUndefined();
  });

  it('leaves a schema without properties alone', () => {
    expect(moveDocstringArgs('Alerts.\n\nArgs:\n    state: Code.\n', { type: 'object' })).toBeUndefined();
    expect(moveDocstringArgs('Alerts.\n\nArgs:\n    state: Code.\n', true)).toBeUndefined();
  });
});

describe('moveDocstringArgs in other docstring styles', () => {
  const catalogSchema = { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } };
  const catalogProperties = {
    query: { type: 'string', description: 'Free-text search terms, matched against names.' },
    limit: { type: 'integer', description: 'How many results.' },
  };

  it('moves a numpy-style Parameters section, underlined, up to the next underlined section', () => {
    const description = [
      'Search the catalog.',
      '',
      '    Parameters',
      '    ----------',
      '    query : str',
      '        Free-text search terms,',
      '        matched against names.',
      '    limit : int, optional',
      '        How many results.',
      '',
      '    Returns',
      '    -------',
      '    list',
      '        The products.',
      '    ',
    ].join('\n');
    const moved = moveDocstringArgs(description, catalogSchema);
    expect(moved?.description).toBe('Search the catalog.\n\n    Returns\n    -------\n    list\n        The products.');
    expect(moved?.schema.properties).toEqual(catalogProperties);
  });

  it('moves Sphinx :param and :type fields, leaving :returns: where it is', () => {
    const description = [
      'Search the catalog.',
      '',
      ':param query: Free-text search terms,',
      '    matched against names.',
      ':type query: str',
      ':param int limit: How many results.',
      ':returns: A list of products.',
    ].join('\n');
    const moved = moveDocstringArgs(description, catalogSchema);
    expect(moved?.description).toBe('Search the catalog.\n\n:returns: A list of products.');
    expect(moved?.schema.properties).toEqual(catalogProperties);
  });

  it('moves a Google Arguments: section with typed entries', () => {
    const description = 'Search the catalog.\n\nArguments:\n    query (str): Free-text search terms, matched against names.\n    limit (int): How many results.\n';
    expect(moveDocstringArgs(description, catalogSchema)).toEqual({
      description: 'Search the catalog.',
      schema: { type: 'object', properties: catalogProperties },
    });
  });
});

describe('compactTools with docstring arguments', () => {
  const tool = {
    name: 'get_alerts',
    description: 'Get weather alerts for a US state.\n\n    Args:\n        state: Two-letter US state code. Upper case.\n    ',
    inputSchema: { type: 'object', properties: { state: { title: 'State', type: 'string' } }, required: ['state'], title: 'get_alertsArguments' },
  };

  it('describes the parameter from the docstring, compacted like any parameter description (default)', () => {
    const [compacted] = compactTools([tool]);
    expect(compacted).toEqual({
      name: 'get_alerts',
      description: 'Get weather alerts for a US state.',
      inputSchema: { type: 'object', properties: { state: { type: 'string', description: 'Two-letter US state code' } }, required: ['state'] },
    });
  });

  it('works on the OpenAI shape too, without touching the input', () => {
    const openai = { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
    const before = structuredClone(openai);
    const [compacted] = compactTools([openai]) as [typeof openai];
    expect(compacted.function.description).toBe('Get weather alerts for a US state.');
    expect(compacted.function.parameters.properties.state).toEqual({ type: 'string', description: 'Two-letter US state code' });
    expect(openai).toEqual(before);
  });

  it('keeps the docstring in the tool description with moveDocstringArgs: false', () => {
    const [compacted] = compactTools([tool], { moveDocstringArgs: false });
    expect(compacted?.description).toBe('Get weather alerts for a US state.\n\nArgs:\n    state: Two-letter US state code. Upper case.');
    expect(compacted?.inputSchema).toEqual({ type: 'object', properties: { state: { type: 'string' } }, required: ['state'] });
  });
});

// Docstrings built from parts: a summary, an argument section in either form and at any indent, and a tail.
const word = fc.stringMatching(/^[A-Za-z][a-z]{0,7}$/);
const sentence = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => `${words.join(' ')}.`);
const docstring = fc.record({
  summary: sentence,
  names: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z_]{0,9}$/), { minLength: 1, maxLength: 5 }),
  texts: fc.array(fc.array(sentence, { minLength: 1, maxLength: 3 }), { minLength: 5, maxLength: 5 }),
  indent: fc.constantFrom('', '    '),
  markdown: fc.boolean(),
  tail: fc.option(sentence, { nil: undefined }),
});

describe('moveDocstringArgs over generated docstrings', () => {
  it('moves every entry whole onto its parameter and keeps the text around the section', () => {
    fc.assert(
      fc.property(docstring, ({ summary, names, texts, indent, markdown, tail }) => {
        const entry = (name: string, index: number) => {
          const [first, ...more] = texts[index]!;
          const continuation = more.map((line) => `\n${indent}${markdown ? '  ' : '        '}${line}`).join('');
          return `${indent}${markdown ? '- ' : '    '}${name}: ${first}${continuation}`;
        };
        const section = [`${indent}${markdown ? 'Parameters:' : 'Args:'}`, ...names.map(entry)].join('\n');
        const after = tail === undefined ? '' : `\n\n${indent}Returns:\n${indent}    ${tail}`;
        const properties = Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
        const moved = moveDocstringArgs(`${summary}\n\n${section}${after}\n${indent}`, { type: 'object', properties });
        expect(moved?.description).toBe(`${summary}${after}`);
        names.forEach((name, index) => {
          expect(moved?.schema.properties).toHaveProperty([name], { type: 'string', description: texts[index]!.join(' ') });
        });
      }),
      { numRuns: 200 },
    );
  });
});
