import { useState } from 'react';

/** Copies text (or the result of `get`, e.g. a secret fetched on demand) and says so for a moment. */
export function CopyButton({
  text,
  get,
  label = 'Copy',
  className,
  disabled,
}: {
  disabled?: boolean;
  text?: string;
  get?: () => Promise<string | undefined>;
  label?: string;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      const value = text ?? (await get?.());
      if (value === undefined) throw new Error('nothing to copy');
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button type="button" className={className} disabled={disabled} onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
