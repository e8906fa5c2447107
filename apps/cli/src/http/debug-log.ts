/** `--debug` lines on stderr (requests, fallbacks, reconnects); never a token. */
export class DebugLog {
  constructor(private readonly enabled: boolean) {}

  write(message: string): void {
    if (this.enabled) process.stderr.write(`debug: ${message}\n`);
  }
}
