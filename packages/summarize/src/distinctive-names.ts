/**
 * Names an agent can take from what it read and use again: paths, file names, identifiers, dotted
 * names and line numbers. A plain word (`return`, `value`, `Django`) is not one. A name is distinctive
 * when it is 3 characters or more and holds a `_`, `.`, `/`, `-`, `$` or digit, or a lower-to-upper case
 * change (camelCase); a number is a name when it has 2 to 6 digits (line numbers, ports, ids). A path
 * or dotted name also gives its components that are names themselves (`astroid/modutils.py` gives
 * `modutils.py`; `self._get_spec` gives `_get_spec`).
 */
const rawToken = /[A-Za-z0-9_$][\w$./-]*[\w$]|[A-Za-z0-9_$]/g;
const allDigits = /^\d+$/;
const lineNumber = /^\d{2,6}$/;

/** True when a token is distinctive enough to be a name (see {@link extractNames}). */
export function isDistinctiveName(token: string): boolean {
  if (allDigits.test(token)) return lineNumber.test(token);
  return token.length >= 3 && (/[_./\-$\d]/.test(token) || /[a-z][A-Z]/.test(token));
}

/**
 * Calls `visit` with every distinctive name in a text, in order, once per occurrence (see
 * {@link extractNames}), without collecting them: a caller that keeps only some names (those it will
 * look up) holds those alone, not every name of a large text.
 * @example forEachName('see astroid/modutils.py', (name) => console.log(name)) // astroid/modutils.py, modutils.py
 */
export function forEachName(text: string, visit: (name: string) => void): void {
  for (const match of text.matchAll(rawToken)) {
    const token = match[0];
    if (allDigits.test(token)) {
      if (lineNumber.test(token)) visit(token);
      continue;
    }
    if (isDistinctiveName(token)) visit(token);
    if (!/[./]/.test(token)) continue;
    for (const component of token.split('/')) {
      if (component !== token && isDistinctiveName(component)) visit(component);
      if (!component.includes('.')) continue;
      for (const part of component.split('.')) if (part !== component && !allDigits.test(part) && isDistinctiveName(part)) visit(part);
    }
  }
}

/**
 * Every distinctive name in a text, in order of first appearance, each with how often it occurs.
 * @example extractNames('see astroid/modutils.py:123 and _get_spec') // Map { 'astroid/modutils.py:123' → 1, 'modutils.py' → 1, '_get_spec' → 1, … }
 */
export function extractNames(text: string, into: Map<string, number> = new Map()): Map<string, number> {
  forEachName(text, (name) => into.set(name, (into.get(name) ?? 0) + 1));
  return into;
}
