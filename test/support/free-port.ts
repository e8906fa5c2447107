import { createServer } from 'node:net';
import { portSlice } from './port-slice';

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, for a process a test starts.
 *
 * Not a port the OS picks: a port from a bind to port 0 is closed again before the process it is
 * meant for binds it, and in that gap any other process's bind to port 0 (a client socket, vcsim,
 * an app of another jest worker) may be given the same port — the gateway of an e2e suite then met
 * EADDRINUSE. The ports handed out here lie below the kernel's ephemeral range, which port-0 binds
 * never reach, each jest worker in a slice of its own (`portSlice`), each port once per test file,
 * and checked by a bind of our own before it is handed out (something else may listen there).
 */
export async function freePort(): Promise<number> {
  const slice = portSlice(process.env.JEST_WORKER_ID, process.pid);
  for (let tried = 0; tried < slice.size; tried++) {
    const port = slice.first + (cursor++ % slice.size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${slice.first}-${slice.first + slice.size - 1}`);
}

// Where this test file's next port is looked for: from a random point of the slice, so that two
// files run one after the other by a worker do not start on the same ports (a process of the first
// may still be going away); then one after the other, so that no port is handed out twice.
let cursor = Math.floor(Math.random() * 1_000_000);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
