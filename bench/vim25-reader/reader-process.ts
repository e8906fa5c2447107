/**
 * Builds and drives the two reader processes of the govmomi comparison in `npm run bench -- vim25`:
 * ours (bench/vim25-reader/main.ts compiled by tsc into .cache/vim25-reader, run on plain Node)
 * and govmomi's (bench/govmomi-reader, built by its build.sh into .cache/govmomi-reader). Both log
 * in once and answer each line written to their stdin with one timed read, as one JSON line.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../..');
export const OUR_READER_JS = join(ROOT, '.cache/vim25-reader/bench/vim25-reader/main.js');
export const GOVMOMI_READER_BIN = join(ROOT, '.cache/govmomi-reader/bin/govmomi-reader');

/** One read as a reader reports it. */
export interface ReadSample {
  readonly vms: number;
  readonly devices: number;
  readonly seconds: number;
  /** Ours only: time spent waiting for vcsim. */
  readonly wire_seconds?: number;
  readonly rss_mb: number;
  readonly rss_growth_mb: number;
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.status ?? result.signal}): ${result.stdout}${result.stderr}`);
  }
}

/** Compiles our reader (and the part of libs/vim25 it uses) to JavaScript. About 10 s. */
export function buildOurReader(): void {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  run(
    process.execPath,
    [tsc, '-p', join(ROOT, 'bench/vim25-reader/tsconfig.build.json')],
    'tsc of the reader',
  );
}

/** Builds the govmomi reader (GOPATH mode, Debian packages; skipped while up to date). */
export function buildGovmomiReader(): void {
  run('bash', [join(ROOT, 'bench/govmomi-reader/build.sh')], 'bench/govmomi-reader/build.sh');
}

/** The `vmPaths` of the Go reader, to prove both readers ask for the same properties. */
export function govmomiReaderPaths(): string[] {
  const source = readFileSync(join(ROOT, 'bench/govmomi-reader/main.go'), 'utf8');
  const block = /var vmPaths = \[\]string\{([^}]*)\}/.exec(source)?.[1] ?? '';
  return [...block.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

/** A running reader process: `read()` asks for one read and resolves with its report. */
export class ReaderProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: AsyncIterator<string>;
  private stderr = '';

  constructor(
    readonly name: string,
    command: string,
    args: string[],
  ) {
    this.child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on(
      'data',
      (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4000)),
    );
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async read(): Promise<ReadSample> {
    this.child.stdin.write('read\n');
    const next = await this.lines.next();
    if (next.done === true) throw new Error(`${this.name} reader exited: ${this.stderr}`);
    return JSON.parse(next.value) as ReadSample;
  }

  /** Closes its stdin (it logs out and exits) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((done) => this.child.once('exit', () => done()));
    this.child.stdin.end();
    await exited;
  }
}
