import { CliError } from './cli-error';
import { EXIT, type ExitCode } from './exit-codes';

/** Prints a failure on stderr (`{"error": ...}` with `--format json`) and returns the exit code. */
export function reportError(error: unknown, json: boolean): ExitCode {
  const known = error instanceof CliError;
  const message = known
    ? error.message
    : `unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  if (json) {
    const body: Record<string, unknown> = { error: message };
    if (known && error.details !== undefined) body.details = error.details;
    process.stderr.write(`${JSON.stringify(body)}\n`);
  } else {
    process.stderr.write(`waldur-cli: ${message}\n`);
  }
  return known ? error.exitCode : EXIT.failure;
}
