// Checks that `engines.node` of every published package says what is tested and what its dependencies
// need: a package whose dependency declares a newer Node (the AI SDK 7 declares >=22) must say so itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/**
 * Problems with the `engines.node` of published packages, one sentence each (empty when all is well).
 * `packages` are `{ name, dir, manifest }`; `testedNode` the Node versions CI runs on; `floor` the lowest
 * Node the repository runs on (the root package.json's engines): no package may claim an older one. A
 * dependency's manifest is read from the package's own node_modules, as pnpm links it.
 */
export function enginesProblems(packages, testedNode, floor) {
  const problems = [];
  for (const { name, dir, manifest } of packages) {
    const range = manifest.engines?.node;
    if (!range || !semver.validRange(range)) {
      problems.push(`${name}: package.json needs "engines": { "node": ">=20.19" } (or the Node its dependencies need), got ${JSON.stringify(range)}`);
      continue;
    }
    const lowest = semver.minVersion(range);
    if (semver.lt(lowest, floor)) problems.push(`${name}: engines.node "${range}" admits Node ${lowest.version}, older than any CI runs on (${floor} and newer)`);
    const admitted = testedNode.filter((version) => semver.satisfies(version, range));
    if (admitted.length === 0) problems.push(`${name}: engines.node "${range}" admits none of the Node versions CI tests (${testedNode.join(', ')})`);
    const dependencies = { ...manifest.dependencies, ...manifest.peerDependencies };
    for (const dependency of Object.keys(dependencies)) {
      const path = join(dir, 'node_modules', dependency, 'package.json');
      if (!existsSync(path)) continue;
      const needs = readJson(path).engines?.node;
      if (!needs || !semver.validRange(needs)) continue;
      const refused = [lowest.version, ...admitted].filter((version) => !semver.satisfies(version, needs));
      if (refused.length > 0) {
        problems.push(`${name}: engines.node "${range}" admits Node ${refused.join(', ')}, but ${dependency} needs "${needs}"; raise the package's engines.node`);
      }
    }
  }
  return problems;
}
