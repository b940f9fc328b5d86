/**
 * The JSON text of a value, for error messages and for comparing content: `JSON.stringify(value)`, or
 * `String(value)` where JSON has no text for it (`undefined`, a function) or cannot write it (a cycle, a
 * BigInt). Never throws, so it is safe on whatever a caller passed in.
 * @example
 * ```ts
 * jsonText({ path: 'src/app.ts' }); // '{"path":"src/app.ts"}'
 * jsonText(undefined);              // 'undefined'
 * jsonText(10n);                    // '10'
 * ```
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
