import { EXIT, type ExitCode } from './exit-codes';

/** A failure to report to the user: its message and the exit code it ends the process with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** The API's answer, when there was one: shown under `error` with `--format json`. */
    readonly details?: unknown,
  ) {
    super(message);
  }

  static usage(message: string): CliError {
    return new CliError(message, EXIT.usage);
  }
}
