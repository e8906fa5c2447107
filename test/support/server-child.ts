import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { connect as tcpConnect } from 'node:net';

/**
 * A server that a test runs as a child process (nats-server, postgres): started and waited for
 * until `ready` says it serves, stopped by a signal to its pid, with the tail of its output kept
 * for the error messages.
 */
export class ServerChild {
  output = '';
  private child?: ChildProcess;
  private exited?: Promise<void>;

  constructor(private readonly label: string) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** True from spawn until the process exits, however it ended. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(
    command: string,
    args: string[],
    options: SpawnOptions,
    ready: () => Promise<boolean>,
    timeoutMs: number,
  ): Promise<void> {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const keep = (chunk: Buffer) => void (this.output = (this.output + chunk.toString()).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    while (!(await ready())) {
      if (!this.running)
        throw new Error(`${this.label} exited (${child.exitCode ?? child.signalCode}):\n${this.output}`);
      if (Date.now() > deadline)
        throw new Error(`${this.label} was not ready within ${timeoutMs} ms:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends `signal` to the process, or to its whole process group; resolves once it has exited. */
  async stop(signal: NodeJS.Signals, target: 'process' | 'group' = 'process'): Promise<void> {
    if (!this.running) return;
    if (target === 'group') process.kill(-this.child!.pid!, signal);
    else this.child!.kill(signal);
    await this.exited;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` right now. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
