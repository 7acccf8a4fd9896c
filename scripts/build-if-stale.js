// The pretest of `npm test` and `test:slow`: runs `npm run build` unless the build's last output, dist/bundle/mkt.cjs,
// is newer than every file the build reads, as make would. The tests that run bin/mkt.js then test
// the tree as it is, and a test run after a build does not wait for the same build again.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const BUILT = 'dist/bundle/mkt.cjs';
// node_modules/.package-lock.json changes with every install: the bundle holds dependencies' code.
const INPUTS = ['src', 'scripts/bundle.js', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'node_modules/.package-lock.json'];

/** The latest change to `path`, or to any file below it; 0 for a path that is not there. */
function lastChange(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, lastChange(join(path, name))), stats.mtimeMs);
}

const built = lastChange(BUILT);
if (built > 0 && INPUTS.every((input) => lastChange(input) < built)) {
  console.error(`${BUILT} is newer than every file the build reads: not built again (\`npm run build\` builds in any case)`);
} else {
  process.exitCode = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' }).status ?? 1;
}
