import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Has a Node process started with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` write a
 * heap snapshot (V8 collects everything unreachable first) and waits until the file is whole:
 * its path. The process answers nothing while it writes.
 */
export async function takeHeapSnapshot(pid: number, dir: string, timeoutMs = 300_000): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + timeoutMs;
  let path: string | undefined;
  let size = -1;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`no heap snapshot of ${pid} in ${timeoutMs} ms`);
    await sleep(500);
    path ??= readdirSync(dir)
      .filter((name) => name.endsWith('.heapsnapshot') && !before.has(name))
      .map((name) => join(dir, name))[0];
    if (path === undefined) continue;
    // V8 writes the snapshot in chunks; it ends with the strings table's closing brackets.
    const now = statSync(path).size;
    if (now > 0 && now === size && endsWhole(path, now)) return path;
    size = now;
  }
}

function endsWhole(path: string, size: number): boolean {
  const tail = Buffer.alloc(Math.min(16, size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, tail, 0, tail.length, size - tail.length);
  } finally {
    closeSync(fd);
  }
  return /\]\s*\}\s*$/.test(tail.toString('latin1'));
}
