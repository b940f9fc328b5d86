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
  /** The lines of the description the section takes up, each removed once its entries move. */
  lines: number[];
  entries: { name: string; text: string }[];
}

/** A numpy-style section header, `Parameters` or `Other Parameters` alone on its line, underlined by the next one. */
const numpyHeader = /^([ \t]*)(?:other[ \t]+)?(?:parameters|params|arguments|args)[ \t]*$/i;
const numpyUnderline = /^[ \t]*-{3,}[ \t]*$/;
/** A numpy entry: `name` or `name : type`. */
const numpyEntry = /^([A-Za-z_]\w*)(?:[ \t]+:(?:[ \t]+(.*))?)?$/;
/** A Sphinx field: `:param name: text`, `:param type name: text`, `:type name: type`, `:returns: text` and the like. */
const sphinxField = /^([ \t]*):([A-Za-z]+)(?:[ \t]+([^:]*?))?[ \t]*:(?:[ \t]+(.*))?$/;
const sphinxParam = /^(?:param|parameter|arg|argument|key|keyword)$/i;

const range = (start: number, end: number) => Array.from({ length: end - start }, (_, offset) => start + offset);
/** A type note that says nothing the schema does not: a type alone, never a default. */
const isTypeNote = (note: string) => typeNote.test(note) && !/\bdefault/i.test(note);

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** One entry line's name and text (its list marker taken off); undefined when it is not `name: text` or its note is more than a type. */
function readEntry(text: string, bulleted: boolean): Section['entries'][number] | undefined {
  const match = entryLine.exec(bulleted ? text.replace(bullet, '') : text);
  if (match === null || (match[2] !== undefined && !isTypeNote(match[2]))) return undefined;
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
  return entries.length === 0 ? undefined : { lines: range(header, end), entries };
}

/**
 * The entries of a numpy-style section whose header is `lines[header]` (underlined by the line after it):
 * `name : type` lines at the header's indent, each followed by its text indented further. It ends at the
 * next underlined header or a line indented less. Undefined when a line at the entries' indent is not an
 * entry, an entry has no text, or its type says more than a type.
 */
function readNumpySection(lines: readonly string[], header: number, headerIndent: number): Section | undefined {
  const entries: Section['entries'] = [];
  let end = header + 2;
  for (let index = header + 2; index < lines.length; index++) {
    const line = lines[index]!;
    const text = line.trim();
    if (text === '') continue;
    const indent = indentOf(line);
    if (indent < headerIndent || (indent === headerIndent && numpyUnderline.test(lines[index + 1] ?? ''))) break;
    if (indent > headerIndent && entries.length > 0) {
      const last = entries[entries.length - 1]!;
      last.text = last.text === '' ? text : `${last.text} ${text}`;
    } else {
      const match = indent === headerIndent ? numpyEntry.exec(text) : null;
      if (match === null || (match[2] !== undefined && !isTypeNote(match[2]))) return undefined;
      entries.push({ name: match[1]!, text: '' });
    }
    end = index + 1;
  }
  return entries.length === 0 ? undefined : { lines: range(header, end), entries };
}

/**
 * The `:param name: text` and `:type name: type` fields of the Sphinx field list starting at `lines[first]`
 * (continuation lines indented further; the list ends at a blank line or a line that is not a field). Other
 * fields (`:returns:`, `:raises X:`) stay where they are. Undefined when there is no parameter field, a type
 * field names no parameter field or says more than a type, or a parameter's inline type does.
 */
function readSphinxFields(lines: readonly string[], first: number): Section | undefined {
  const entries: Section['entries'] = [];
  const types: { name: string; note: string }[] = [];
  const taken: number[] = [];
  let current: Section['entries'][number] | undefined;
  let fieldIndent = indentOf(lines[first]!);
  for (let index = first; index < lines.length; index++) {
    const line = lines[index]!;
    const field = sphinxField.exec(line);
    if (field === null || field[1]!.length !== fieldIndent) {
      if (line.trim() === '' || indentOf(line) <= fieldIndent) break;
      if (current !== undefined) {
        current.text = current.text === '' ? line.trim() : `${current.text} ${line.trim()}`;
        taken.push(index);
      }
      continue;
    }
    fieldIndent = field[1]!.length;
    const [kind, argument, text] = [field[2]!, (field[3] ?? '').trim(), (field[4] ?? '').trim()];
    current = undefined;
    if (sphinxParam.test(kind)) {
      const words = argument.split(/[ \t]+/);
      const name = words.pop()!;
      if (!/^[A-Za-z_]\w*$/.test(name) || (words.length > 0 && !isTypeNote(words.join(' ')))) return undefined;
      current = { name, text };
      entries.push(current);
    } else if (/^type$/i.test(kind)) {
      types.push({ name: argument, note: text });
    } else continue;
    taken.push(index);
  }
  if (entries.length === 0 || types.some(({ name, note }) => !isTypeNote(note) || !entries.some((entry) => entry.name === name))) return undefined;
  return { lines: taken, entries };
}

/** The docstring section starting at `lines[index]`, in whichever style it is written; null when none starts there. */
function readSectionAt(lines: readonly string[], index: number): Section | undefined | null {
  const line = lines[index]!;
  const google = sectionHeader.exec(line);
  if (google !== null) return readSection(lines, index, google[1]!.length);
  const numpy = numpyHeader.exec(line);
  if (numpy !== null && numpyUnderline.test(lines[index + 1] ?? '') && indentOf(lines[index + 1]!) === numpy[1]!.length) {
    return readNumpySection(lines, index, numpy[1]!.length);
  }
  const field = sphinxField.exec(line);
  if (field !== null && sphinxParam.test(field[2]!)) return readSphinxFields(lines, index);
  return null;
}

/** Two descriptions that say the same, but for white space, case and a closing full stop. */
const comparable = (text: string) => collapseWhitespace(text).replace(/\.$/, '').toLowerCase();
const sameText = (a: string, b: string) => comparable(a) === comparable(b);

/**
 * Moves a docstring's argument section out of a tool description and onto the parameters it documents:
 * the shape the MCP Python SDK and FastMCP produce, where the function's whole docstring becomes the
 * description and the parameters carry none. The section may be Google style (`Args:`, `Arguments:`,
 * `Parameters:` then `name (type): text` lines), its Markdown form in hand-written descriptions
 * (`Parameters:` then `- name: text` items), numpy style (`Parameters`, a `----------` underline, then
 * `name : type` lines with the text indented below) or Sphinx fields (`:param name: text`, with
 * `:type name: type` lines; `:returns:` and other fields stay). Each entry's
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
    const section = readSectionAt(lines, index);
    if (section === null) continue;
    if (section === undefined) return undefined;
    const described = new Map<string, unknown>();
    for (const { name, text } of section.entries) {
      const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
      if (!isRecord(property) || text === '' || described.has(name)) return undefined;
      if (property.description !== undefined && !(typeof property.description === 'string' && sameText(property.description, text))) return undefined;
      described.set(name, property.description === undefined ? { ...property, description: text } : property);
    }
    const taken = new Set(section.lines);
    const rest = lines
      .filter((_, line) => !taken.has(line))
      .join('\n')
      .replace(/\n[ \t]*\n([ \t]*\n)+/g, '\n\n');
    // Built from entries, so a property named `__proto__` stays data.
    const moved = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, described.get(name) ?? property]));
    return { description: rest.trimEnd(), schema: { ...schema, properties: moved } };
  }
  return undefined;
}
