import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/program.js';
import { describeCommand, type CommandSpec } from '../../../src/generators/model.js';

/** The real program, built as `mkt` builds it, with streams nobody reads. */
export function realProgram(): Command {
  return buildProgram({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough(), env: {}, now: () => 0 });
}

export function programSpec(): CommandSpec {
  return describeCommand(realProgram());
}
