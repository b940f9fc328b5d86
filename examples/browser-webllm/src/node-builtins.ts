// Stands in for the node: modules that workspace packages import only in node-only code paths (the
// engine's edited-files source reads files from disk). The page registers no such source; if one were
// registered, it fails with this message instead of the build failing.
const unavailable = (name: string) => () => {
  throw new Error(`${name} is not available in the browser: do not register node-only plugins (editedFilesSource) in a page`);
};

export const readFile = unavailable('node:fs/promises readFile');
export const resolve = unavailable('node:path resolve');
