import { useState } from 'react';

/**
 * DevTools' "Preserve log": keep what earlier page loads logged. On unless the person turned it off
 * (remembered per panel); `reveal` turns it on for now when something of an earlier load is shown.
 */
export function usePreserveLog(storageKey: string) {
  const [preserve, setPreserve] = useState(() => globalThis.localStorage?.getItem(storageKey) !== 'false');
  const choose = (on: boolean) => {
    setPreserve(on);
    globalThis.localStorage?.setItem(storageKey, String(on));
  };
  return { preserve, choose, reveal: () => setPreserve(true) };
}

export function PreserveLogBox({
  preserve,
  choose,
  className,
  title,
  testId,
}: {
  preserve: boolean;
  choose: (on: boolean) => void;
  className: string;
  title?: string;
  testId: string;
}) {
  return (
    <label className={className} title={title}>
      <input type="checkbox" checked={preserve} onChange={(e) => choose(e.target.checked)} data-testid={testId} />
      Preserve log
    </label>
  );
}
