import { spawnSync } from 'node:child_process';

/** Whether `command` is on the PATH: tests that need a tool the machine may lack skip, and say so. */
export function installed(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
