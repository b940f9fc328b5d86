import { collapseWhitespace } from './description-text.ts';
import { isRecord } from './schema-keywords.ts';

/** A section header alone on its line: `Args:`, `Arguments:`, `Parameters:` or `Params:`, any case, maybe in bold. */
const sectionHeader = /^([ \t]*)(?:\*\*)?(?:args|arguments|parameters|params)[ \t]*:(?:\*\*)?[ \t]*$/i;
/** An entry: `name: text` or `name (type): text`, the name bare, in backticks or in bold. */
const entryLine = /^(?:`|\*\*)?([A-Za-z_][\w-]*)(?:`|\*\*)?(?:[ \t]*\(([^)]*)\))?[ \t]*:(?:[ \t]+(.*))?$/;
/** A parenthesised type that says nothing the schema does not: `str`, `list[str]`, `int | None`, `str, optional`. */
const typeNote = /^[\w.[\] |,]*$/;
/** A Markdown list item's marker. */
const bullet = /^[-*•][ \t]+/;

interface Section {
  start: number;
  end: number;
  entries: { name: string; text: string }[];
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** One entry line's name and text (its list marker taken off); undefined when it is not `name: text` or its note is more than a type. */
function readEntry(text: string, bulleted: boolean): Section['entries'][number] | undefined {
  const match = entryLine.exec(bulleted ? text.replace(bullet, '') : text);
  if (match === null || (match[2] !== undefined && (!typeNote.test(match[2]) || /\bdefault/i.test(match[2])))) return undefined;
  return { name: match[1]!, text: (match[3] ?? '').trim() };
}

/**
 * The entries of the section whose header is `lines[header]`, and the line after it: Google style (entries
 * indented under the header, continuation lines indented further) or a Markdown list (`- name: text` items,
 * ending at a blank line). Undefined when a line of it is neither an entry nor a continuation.
 */
function readSection(lines: readonly string[], header: number, headerIndent: number): Section | undefined {
  const entries: Section['entries'] = [];
  let entryIndent: number | undefined;
  let bulleted = false;
  let end = header + 1;
  for (let index = header + 1; index < lines.length; index++) {
    const line = lines[index]!;
    const text = line.trim();
    const indent = indentOf(line);
    if (text === '') {
      if (bulleted) break;
      continue;
    }
    if (entryIndent === undefined) {
      bulleted = bullet.test(text);
      entryIndent = indent;
    }
    if (indent < entryIndent || (!bulleted && indent <= headerIndent)) break;
    if (indent > entryIndent && entries.length > 0) {
      const last = entries[entries.length - 1]!;
      last.text = last.text === '' ? text : `${last.text} ${text}`;
    } else {
      const entry = indent === entryIndent && (!bulleted || bullet.test(text)) ? readEntry(text, bulleted) : undefined;
      if (entry === undefined) return undefined;
      entries.push(entry);
    }
    end = index + 1;
  }
  return entries.length === 0 ? undefined : { start: header, end, entries };
}

/** Two descriptions that say the same, but for white space, case and a closing full stop. */
const comparable = (text: string) => collapseWhitespace(text).replace(/\.$/, '').toLowerCase();
const sameText = (a: string, b: string) => comparable(a) === comparable(b);

/**
 * Moves a docstring's argument section out of a tool description and onto the parameters it documents:
 * the shape the MCP Python SDK and FastMCP produce, where the function's whole docstring (`Args:` then
 * `name: text` lines, Google style) becomes the description and the parameters carry none, and its
 * Markdown form in hand-written descriptions (`Parameters:` then `- name: text` items). Each entry's
 * text becomes its parameter's `description` (then compacted like any parameter description); an entry
 * that repeats a description the parameter already has just goes. Done only when every entry of the
 * section names a top-level property, no property already says something else, and a parenthesised
 * note holds only a type (`(str, optional)`, never a default); otherwise both stay as they are.
 * Returns undefined when nothing moved.
 * @example
 * moveDocstringArgs('Get alerts.\n\n    Args:\n        state: Two-letter US state code\n    ', { type: 'object', properties: { state: { type: 'string' } } })
 * // { description: 'Get alerts.', schema: { type: 'object', properties: { state: { type: 'string', description: 'Two-letter US state code' } } } }
 */
export function moveDocstringArgs(description: string, schema: unknown): { description: string; schema: Record<string, unknown> } | undefined {
  if (!isRecord(schema) || !isRecord(schema.properties)) return undefined;
  const properties = schema.properties;
  const lines = description.split('\n');
  for (let index = 1; index < lines.length; index++) {
    const header = sectionHeader.exec(lines[index]!);
    if (header === null) continue;
    const section = readSection(lines, index, header[1]!.length);
    if (section === undefined) return undefined;
    const described = new Map<string, unknown>();
    for (const { name, text } of section.entries) {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (!isRecord(property) || text === '' || described.has(name)) return undefined;
      if (property.description !== undefined && !(typeof property.description === 'string' && sameText(property.description, text))) return undefined;
      described.set(name, property.description === undefined ? { ...property, description: text } : property);
    }
    const rest = [...lines.slice(0, section.start), ...lines.slice(section.end)].join('\n').replace(/\n[ \t]*\n([ \t]*\n)+/g, '\n\n');
    // Built from entries, so a property named `__proto__` stays data.
    const moved = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, described.get(name) ?? property]));
    return { description: rest.trimEnd(), schema: { ...schema, properties: moved } };
  }
  return undefined;
}
