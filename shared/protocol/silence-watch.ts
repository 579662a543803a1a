export interface SilenceWatch {
  /** Something arrived from the peer. Cheap: no timer work per frame. */
  heard(): void;
  stop(): void;
}

/**
 * Calls `onSilent` once, as soon as nothing was heard for `timeoutMs` (not up to a check interval
 * later): one timer that re-arms itself for the time that is left.
 */
export function watchSilence(timeoutMs: number, onSilent: () => void): SilenceWatch {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(check, ms);
    (timer as { unref?: () => void }).unref?.();
  };
  const check = () => {
    const quiet = Date.now() - last;
    if (quiet < timeoutMs) return arm(timeoutMs - quiet);
    timer = undefined;
    onSilent();
  };
  arm(timeoutMs);
  return {
    heard() {
      last = Date.now();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
