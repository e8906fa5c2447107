#!/usr/bin/env node
import { CommanderError } from 'commander';
import { dispatch } from './dispatch';
import { EXIT } from './exit-codes';
import { buildProgram } from './program';
import { reportError } from './report-error';

/** `waldur-cli`: parses the command line, runs the command, exits with its code (see exit-codes.ts). */
async function main(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  const program = buildProgram(dispatch, { errorsAsJson: json });
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportError(error, json);
  }
}

/** Errors are JSON on stderr with `--format json`, whatever else failed to parse. */
function wantsJson(argv: string[]): boolean {
  return argv.some((arg, i) => arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'));
}

process.once('SIGINT', () => process.exit(EXIT.interrupted));
// `waldur-cli ... | head`: a reader that has read enough is no failure of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(EXIT.ok);
});
void main(process.argv).then((code) => {
  process.exitCode = code;
  // Idle keep-alive sockets of fetch must not hold the process.
  setImmediate(() => process.exit(code));
});
