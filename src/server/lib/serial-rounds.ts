/**
 * Runs a background worker's rounds one at a time. A call while a round runs, or a round that
 * answers true (a full batch: there may be more), runs another right after it; a failing round is
 * handed to `onError` and the next call tries again.
 */
export function serialRounds(round: () => Promise<boolean>, onError: (error: unknown) => void) {
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        if (await round()) again = true;
      } while (again && !stopped);
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };
  return {
    run,
    /** No round starts after this; resolves once the one under way is over. */
    async stop() {
      stopped = true;
      while (running) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
