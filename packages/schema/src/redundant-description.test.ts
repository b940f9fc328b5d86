import { describe, expect, it } from 'vitest';
import { dropRestatedNotes, restatesSchema, wordsOf } from './redundant-description.ts';

describe('wordsOf', () => {
  it('splits names and sentences into lowercase words', () => {
    expect(wordsOf('pullNumber')).toEqual(['pull', 'number']);
    expect(wordsOf('per_page')).toEqual(['per', 'page']);
    expect(wordsOf('HTTPServerURL')).toEqual(['http', 'server', 'url']);
    expect(wordsOf("The project's number.")).toEqual(['the', 'project', 'number']);
  });
});

describe('restatesSchema', () => {
  it.each([
    ['Issue number', 'issue_number', { type: 'number' }],
    ['The number of the alert.', 'alertNumber', { type: 'number' }],
    ['The ID of the gist', 'gist_id', { type: 'string' }],
    ['Repository', 'repo', { type: 'string' }],
    ['Page number', 'page', { type: 'integer' }],
    ['Direction: asc or desc', 'direction', { type: 'string', enum: ['asc', 'desc'] }],
    ['The email', 'email', { type: 'string', format: 'email' }],
    ['A date-time value', 'since', { type: 'string', format: 'date-time' }],
    ['Discussion Number', 'discussionNumber', { type: 'number' }],
    ['The unique identifier of the migration.', 'migration_id', { type: 'integer' }],
  ])('%j restates %s', (description, name, schema) => {
    expect(restatesSchema(description, { name, schema })).toBe(true);
  });

  it.each([
    ['Repository name', 'repo', { type: 'string' }],
    ['The method to execute', 'method', { type: 'string' }],
    ['Page number for pagination', 'page', { type: 'number' }],
    ['Issue number to update', 'issue_number', { type: 'number' }],
    ['Sort direction', 'direction', { type: 'string', enum: ['asc', 'desc'] }],
  ])('%j says more than %s', (description, name, schema) => {
    expect(restatesSchema(description, { name, schema })).toBe(false);
  });

  it.each([
    ['account ID', 'id', ['list_zones', 'account']],
    ['Policy identifier', 'id', ['create_member', 'policies']],
    ['zone status', 'status', ['list_zones']],
    ['Pull request number', 'pullNumber', ['merge_pull_request']],
  ])('%j restates %s under %j', (description, name, owners) => {
    expect(restatesSchema(description, { name, owners, schema: { type: 'string' } })).toBe(true);
    expect(restatesSchema(description, { name, schema: { type: 'string' } })).toBe(false);
  });

  it('needs every word from the name or what it sits under', () => {
    expect(restatesSchema('Direction to order zones', { name: 'direction', owners: ['list_zones'], schema: { type: 'string' } })).toBe(false);
    expect(restatesSchema('domain name', { name: 'name', owners: ['list_zones', 'account'], schema: { type: 'string' } })).toBe(false);
  });

  it('keeps long descriptions even when every word is known', () => {
    expect(restatesSchema('Issue number issue number issue number', { name: 'issue_number_issue_number_issue', schema: {} })).toBe(false);
  });
});

describe('dropRestatedNotes', () => {
  const paging = { type: 'number', minimum: 1, maximum: 100 };

  it('drops bounds the schema enforces', () => {
    expect(dropRestatedNotes('Results per page for pagination (min 1, max 100)', { schema: paging })).toBe('Results per page for pagination');
    expect(dropRestatedNotes('Results per page (1-100).', { schema: paging })).toBe('Results per page.');
  });

  it('keeps the parts the schema does not show', () => {
    expect(dropRestatedNotes('Results per page (default 30, min 1, max 100)', { schema: paging })).toBe('Results per page (default 30)');
    expect(dropRestatedNotes('Results per page (max 50)', { schema: { type: 'number' } })).toBe('Results per page (max 50)');
    expect(dropRestatedNotes('Results per page (max 50)', { schema: paging })).toBe('Results per page (max 50)');
  });

  it('drops examples that are only a value of the format or enum', () => {
    const dateTime = { type: 'string', format: 'date-time' };
    expect(dropRestatedNotes('Start date in ISO 8601 format (e.g., 2023-04-01T00:00:00Z).', { schema: dateTime })).toBe('Start date in ISO 8601 format.');
    expect(dropRestatedNotes('Owner type (user or org).', { schema: { type: 'string', enum: ['user', 'org'] } })).toBe('Owner type.');
    expect(dropRestatedNotes('A label (e.g., "OAuth 2.0").', { schema: { type: 'string' } })).toBe('A label (e.g., "OAuth 2.0").');
    expect(dropRestatedNotes('Owner type (user or team).', { schema: { type: 'string', enum: ['user', 'org'] } })).toBe('Owner type (user or team).');
  });

  it('drops requiredness that agrees', () => {
    expect(dropRestatedNotes('The SHA (optional, defaults to latest)', { schema: {}, required: false })).toBe('The SHA (defaults to latest)');
    expect(dropRestatedNotes('The SHA (optional)', { schema: {}, required: true })).toBe('The SHA (optional)');
  });
});
