import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';

/** The interpreter python3 named at the check: a version manager's python3 is a script that starts several shells at each call. */
let interpreter = 'python3';

/**
 * Why python3 cannot find these modules, or undefined when it can: tests that read our files
 * with pyarrow or polars skip, and say why (.ci/run installs them from the machine's Python
 * package index). The modules are found, not imported: their import is the reading test's
 * own work, done once there.
 */
export function pythonLacks(modules: readonly string[]): string | undefined {
  const find = `import importlib.util, sys\nif any(importlib.util.find_spec(name) is None for name in ${JSON.stringify(modules)}): sys.exit(1)\nprint(sys.executable)`;
  const check = spawnSync('python3', ['-c', find], { encoding: 'utf8' });
  if (check.error) return 'python3 is not installed';
  if (check.status !== 0) return `python3 cannot find ${modules.join(' and ')}`;
  interpreter = check.stdout.trim() || interpreter;
  return undefined;
}

/** Runs a Python script (its text) with arguments, and returns what it printed on stdout. */
export async function runPython(script: string, args: readonly string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(interpreter, ['-c', script, ...args], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
