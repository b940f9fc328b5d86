// @ctxkit/schema README: compact an MCP tool definition; the same body back from normalizeToolsInput.
import { compactTools, normalizeToolsInput } from '@ctxkit/schema';
import { assert, done } from './_support.mjs';

const tools = [
  {
    name: 'list_issues',
    description: 'List issues in a GitHub repository.\nUse it to find work before opening a new issue.\n',
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'List issues input',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        state: { type: 'string', enum: ['open', 'closed'], default: 'open', description: 'Filter by state. Defaults to open.' },
        title: { type: 'string', description: 'Optional: Only issues whose title contains this text. Case-insensitive.' },
        perPage: { type: 'number', minimum: 1, maximum: 100, description: 'Results per page for pagination (min 1, max 100)' },
      },
      required: ['owner', 'repo'],
    },
  },
];
assert.deepEqual(compactTools(tools), [
  {
    name: 'list_issues',
    description: 'List issues in a GitHub repository.\nUse it to find work before opening a new issue.',
    inputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'Repository owner (username or organization)' },
        repo: { type: 'string', description: 'Repository name' },
        state: { type: 'string', enum: ['open', 'closed'], description: 'Filter by state' },
        title: { type: 'string', description: 'Only issues whose title contains this text' },
        perPage: { type: 'number', minimum: 1, maximum: 100, description: 'Results per page for pagination' },
      },
      required: ['owner', 'repo'],
    },
  },
]);
const requestBody = { model: 'gpt-4o', messages: [], tools: [{ type: 'function', function: { name: 'list_issues', description: tools[0].description, parameters: tools[0].inputSchema } }] };
const { tools: found, wrap } = normalizeToolsInput(requestBody);
const smaller = wrap(compactTools(found));
assert.equal(smaller.model, 'gpt-4o');
assert.equal(smaller.tools[0].type, 'function');
assert.ok(JSON.stringify(smaller).length < JSON.stringify(requestBody).length);
done(`list_issues compacted as documented; OpenAI body ${JSON.stringify(requestBody).length} → ${JSON.stringify(smaller).length} chars`);
