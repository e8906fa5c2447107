import { createSpinner, type Spinner } from 'nanospinner';

/** The one-line live progress of a wait (state and elapsed time): on a terminal only, on stderr. */
export interface Progress {
  update(object: Record<string, unknown>): void;
  stop(): void;
}

const SILENT: Progress = { update: () => undefined, stop: () => undefined };

export function startProgress(label: string, enabled: boolean): Progress {
  if (!enabled) return SILENT;
  const started = Date.now();
  let state = '…';
  const text = () => `${label}: ${state} (${Math.round((Date.now() - started) / 1000)}s)`;
  const spinner: Spinner = createSpinner(text(), { stream: process.stderr, interval: 100 }).start();
  const ticker = setInterval(() => spinner.update({ text: text() }), 1000);
  let stopped = false;
  return {
    update(object) {
      if (typeof object.state === 'string') state = object.state;
      spinner.update({ text: text() });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(ticker);
      // Without options it clears its line and shows the cursor again: the result follows on stdout.
      spinner.stop();
    },
  };
}
