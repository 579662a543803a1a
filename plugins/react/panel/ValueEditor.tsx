import { useState } from 'react';

/** A value the editor can write back as it is shown: JSON's primitives (objects come cut and tagged). */
export const editable = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * Edit one value as JSON, as React DevTools' inspector lets one: Edit opens a field with the value,
 * Enter writes it (React re-renders the component), Escape leaves it as it was.
 */
export function ValueEditor({
  label,
  value,
  onSave,
}: {
  label: string;
  value: string | number | boolean | null;
  onSave(value: unknown): Promise<void>;
}) {
  const [text, setText] = useState<string | undefined>();
  const [problem, setProblem] = useState<string>();
  if (text === undefined) {
    return (
      <button type="button" className="link rx-edit" onClick={() => setText(JSON.stringify(value))}>
        Edit<span className="visually-hidden"> {label}</span>
      </button>
    );
  }
  const save = async () => {
    let next: unknown;
    try {
      next = JSON.parse(text);
    } catch {
      setProblem('Not JSON: write "text" in quotes, or a number, true, false, null');
      return;
    }
    try {
      await onSave(next);
      setText(undefined);
      setProblem(undefined);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  return (
    <span className="rx-editor">
      <input
        aria-label={`${label} as JSON`}
        value={text}
        // biome-ignore lint/a11y/noAutofocus: the field opens on the person's own Edit
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void save();
          if (e.key === 'Escape') {
            setText(undefined);
            setProblem(undefined);
          }
        }}
      />
      {problem && (
        <span className="rx-edit-problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
