import { withHeapCap } from './heap-cap';

// Imported first by main.ts, before anything is loaded: every way the adapter is started (npm
// start, docker compose, the e2e, fault and bench harnesses) runs main.js, so the cap is set here
// once. process.execve replaces the process in place (same pid, same stdio and environment), so a
// supervisor, a signal or a SIGKILL reaches the capped adapter itself; without it (Node before
// 23.11, Windows) the adapter runs uncapped.
const args = withHeapCap(process.execArgv, process.env.NODE_OPTIONS);
if (args !== undefined && typeof process.execve === 'function')
  process.execve(process.execPath, [process.execPath, ...args, ...process.argv.slice(1)], process.env);
