import { type KeyboardEvent, useRef, useState } from 'react';

const HISTORY_KEY = 'porthole.console.replHistory';
const MAX_HISTORY = 100;

function loadHistory(): string[] {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string').slice(-MAX_HISTORY) : [];
  } catch {
    return [];
  }
}

/**
 * The console's input: Enter runs the code in the app (Shift+Enter adds a line), Up and Down walk
 * what was run before (kept across restarts of the window), when the caret is on the first or last line.
 */
export function Repl({ disabled, why, onRun }: { disabled: boolean; why?: string; onRun(code: string): void }) {
  const [code, setCode] = useState('');
  const history = useRef(loadHistory());
  const at = useRef(history.current.length);
  const draft = useRef('');

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      const text = code.trim();
      if (!text || disabled) return;
      const list = history.current.filter((h) => h !== text);
      list.push(text);
      history.current = list.slice(-MAX_HISTORY);
      globalThis.localStorage?.setItem(HISTORY_KEY, JSON.stringify(history.current));
      at.current = history.current.length;
      setCode('');
      onRun(text);
      return;
    }
    const onFirstLine = !el.value.slice(0, el.selectionStart).includes('\n');
    const onLastLine = !el.value.slice(el.selectionEnd).includes('\n');
    if (e.key === 'ArrowUp' && onFirstLine && at.current > 0) {
      e.preventDefault();
      if (at.current === history.current.length) draft.current = code;
      at.current--;
      setCode(history.current[at.current]!);
    } else if (e.key === 'ArrowDown' && onLastLine && at.current < history.current.length) {
      e.preventDefault();
      at.current++;
      setCode(at.current === history.current.length ? draft.current : history.current[at.current]!);
    }
  };

  return (
    <div className="con-repl">
      <span className="con-prompt" aria-hidden="true">
        ›
      </span>
      <textarea
        className="con-repl-input"
        rows={Math.min(8, code.split('\n').length)}
        value={code}
        placeholder={disabled ? why : 'Evaluate in the app (Enter runs, Shift+Enter adds a line, ↑/↓ history)'}
        aria-label="Evaluate in the app"
        aria-description={disabled ? why : undefined}
        readOnly={disabled}
        spellCheck={false}
        onChange={(e) => setCode(e.target.value)}
        onKeyDown={onKeyDown}
        data-testid="console-repl"
      />
    </div>
  );
}
