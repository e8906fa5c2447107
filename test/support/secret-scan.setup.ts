import { findLeaks, installFetchRecorder } from './secret-scan';

/**
 * Jest setup of every e2e file: records what the file sends and receives, and fails the file when
 * a token or password it used shows up in an app's log line or in an answer. This root-level hook
 * runs after the hooks of the file's describe blocks, i.e. after the apps have stopped and written
 * their last lines (a file's own top-level afterAll would run after it).
 */
installFetchRecorder();

afterAll(async () => {
  const leaks = await findLeaks();
  if (leaks.length > 0) {
    const shown = leaks.slice(0, 20).map((leak) => `  - ${leak.secret}: in ${leak.where}`);
    throw new Error(`Secrets in clear text where they must never be (${leaks.length}):\n${shown.join('\n')}`);
  }
});
