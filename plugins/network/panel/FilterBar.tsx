import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { type Query, removeTerm, tokenize } from './query.js';
import { applySuggestion, type Suggestions, suggest, type Vocabulary } from './suggest.js';

/** Buttons that add or remove one term: the common filters in one click. */
const QUICK = [
  { term: 'is:failed', label: 'Failed', title: 'Network failures and HTTP errors (status ≥ 400)' },
  { term: 'is:mocked', label: 'Mocked', title: 'Answered by a mock rule' },
  { term: 'is:pending', label: 'Pending', title: 'Still waiting for the response' },
];

/** The requests table's filter bar: the query box with suggestions, quick filters, the count. */
export function FilterBar({
  text,
  query,
  onChange,
  vocabulary,
  shown,
  total,
  children,
}: {
  text: string;
  query: Query;
  onChange(text: string): void;
  vocabulary: () => Vocabulary;
  shown: number;
  total: number;
  /** More controls after the count (search, columns). */
  children?: ReactNode;
}) {
  const has = (term: string) => tokenize(text).some((t) => t.text === term);
  const toggle = (term: string) => onChange(has(term) ? removeTerm(text, term) : `${text.trim()} ${term}`.trim());
  return (
    <div className="filters net-filters">
      <QueryBox text={text} onChange={onChange} vocabulary={vocabulary} />
      <fieldset className="quick" aria-label="Quick filters">
        {QUICK.map((q) => (
          <button
            key={q.term}
            type="button"
            className="chip"
            aria-pressed={has(q.term)}
            title={`${q.title} (${q.term})`}
            onClick={() => toggle(q.term)}
          >
            {q.label}
          </button>
        ))}
      </fieldset>
      {!query.empty && (
        <button type="button" className="link" onClick={() => onChange('')}>
          Clear filter
        </button>
      )}
      <span className="spacer" />
      {children}
      <span className="muted small" data-testid="network-count" aria-live="polite">
        {query.empty && shown === total
          ? `${total.toLocaleString()} requests`
          : `${shown.toLocaleString()} of ${total.toLocaleString()} requests`}
      </span>
      {query.errors.length > 0 && (
        <div className="query-errors small" role="status" data-testid="query-errors">
          {query.errors.join(' · ')}
        </div>
      )}
    </div>
  );
}

/**
 * The query input as an ARIA combobox: suggestions as you type, Up/Down to choose, Enter (or → at
 * the end of the text) to take one, Escape closes them. Tab always moves the focus on, as it does
 * everywhere else: it never takes a suggestion.
 */
function QueryBox({
  text,
  onChange,
  vocabulary,
}: {
  text: string;
  onChange(text: string): void;
  vocabulary: () => Vocabulary;
}) {
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState<number | undefined>();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const suggestions: Suggestions | undefined = useMemo(
    () => (open && caret !== undefined ? suggest(text, caret, vocabulary()) : undefined),
    [open, caret, text, vocabulary],
  );
  const items = suggestions?.items ?? [];
  const expanded = items.length > 0;

  const take = (index: number) => {
    const item = items[index];
    if (!suggestions || !item) return;
    const next = applySuggestion(text, suggestions, item);
    onChange(next.text);
    setCaret(next.caret);
    setActive(0);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!expanded) {
        setOpen(true);
        setCaret(e.currentTarget.selectionStart ?? text.length);
        return;
      }
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
    } else if (e.key === 'Enter' && expanded) {
      e.preventDefault();
      take(active);
    } else if (e.key === 'ArrowRight' && expanded && atEnd(e.currentTarget)) {
      e.preventDefault();
      take(active);
    } else if (e.key === 'Tab') {
      // The focus leaves; the list goes with it (onBlur), and nothing is taken.
      setOpen(false);
    } else if (e.key === 'Escape' && expanded) {
      // Only the list closes; a second Escape leaves the box.
      e.preventDefault();
      e.nativeEvent.stopImmediatePropagation();
      setOpen(false);
    }
  };

  return (
    <div className="query-box">
      <input
        ref={input}
        type="text"
        role="combobox"
        aria-label="Filter requests"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        placeholder="Filter: text, /regex/, status:5xx, method:POST, -domain:cdn… (press /)"
        value={text}
        spellCheck={false}
        autoComplete="off"
        data-filter
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart ?? e.target.value.length);
          setOpen(true);
          setActive(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart ?? undefined)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <div id={listId} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
        {items.map((item, i) => (
          // biome-ignore lint/a11y/useFocusableInteractive: the combobox input keeps the focus (aria-activedescendant)
          <div
            key={item.insert}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className="suggestion"
            onMouseDown={(e) => {
              e.preventDefault();
              take(i);
            }}
          >
            <span className="mono">{item.insert}</span>
            <span className="muted small">{item.detail}</span>
          </div>
        ))}
      </div>
    </div>
  );
}

/** The caret is at the end of the text with nothing selected (→ would not move it). */
function atEnd(input: HTMLInputElement): boolean {
  return input.selectionStart === input.value.length && input.selectionEnd === input.value.length;
}
