import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The exit of runPythonNeeding's script when python3 cannot find a module it needs. */
const LACKS_MODULES = 86;

/**
 * Runs a Python script (its text) that needs these modules, with arguments, in one start of
 * python3: what it printed on stdout, or why it could not run, for a test that then skips and
 * says why (.ci/run installs them from the machine's Python package index). The modules are
 * found before the script imports them, in the same process: a start of python3 to look for
 * them alone would cost as much again.
 */
export async function runPythonNeeding(modules: readonly string[], script: string, args: readonly string[]): Promise<{ stdout: string } | { lacks: string }> {
  const find = `import importlib.util, sys\nif any(importlib.util.find_spec(name) is None for name in ${JSON.stringify(modules)}): sys.exit(${LACKS_MODULES})\n`;
  try {
    const { stdout } = await promisify(execFile)('python3', ['-c', `${find}${script}`, ...args], { maxBuffer: 64 * 1024 * 1024 });
    return { stdout };
  } catch (error) {
    const { code } = error as { code?: unknown };
    if (code === 'ENOENT') return { lacks: 'python3 is not installed' };
    if (code === LACKS_MODULES) return { lacks: `python3 cannot find ${modules.join(' and ')}` };
    throw error;
  }
}
