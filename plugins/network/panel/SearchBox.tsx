import { useState } from 'react';
import type { SearchPlace, SearchQuery } from '../protocol.js';

export interface SearchState {
  query: SearchQuery;
  /** id → where it hit; absent while the search runs. */
  hits?: Map<string, SearchPlace[]>;
  ids?: ReadonlySet<string>;
  error?: string;
}

/** Search in headers and bodies (request and response): Enter runs it where the bodies are. */
export function SearchBox({
  state,
  onSearch,
  onClear,
}: {
  state?: SearchState;
  onSearch(query: SearchQuery): void;
  onClear(): void;
}) {
  const [text, setText] = useState(state?.query.text ?? '');
  const [regex, setRegex] = useState(state?.query.regex ?? false);
  const [caseSensitive, setCaseSensitive] = useState(state?.query.caseSensitive ?? false);
  const run = (over: Partial<SearchQuery> = {}) => {
    const query = { text, regex, caseSensitive, ...over };
    if (query.text.trim()) onSearch(query);
    else onClear();
  };
  return (
    <search className="search-box" aria-label="Search in headers and bodies">
      <input
        type="search"
        aria-label="Search headers and bodies"
        placeholder="Search headers & bodies ⏎"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value) onClear();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            run();
          }
        }}
      />
      {(
        [
          { key: 'caseSensitive', on: caseSensitive, set: setCaseSensitive, label: 'Match case', text: 'Aa' },
          { key: 'regex', on: regex, set: setRegex, label: 'Regular expression', text: '.*' },
        ] as const
      ).map((option) => (
        <button
          key={option.key}
          type="button"
          className="chip"
          aria-pressed={option.on}
          title={option.label}
          aria-label={option.label}
          onClick={() => {
            option.set(!option.on);
            if (state) run({ [option.key]: !option.on });
          }}
        >
          {option.text}
        </button>
      ))}
      {state && (
        <span className="small muted" data-testid="search-status" aria-live="polite">
          {state.error ? (
            <span className="error-text">{state.error}</span>
          ) : state.hits ? (
            `${state.hits.size.toLocaleString()} ${state.hits.size === 1 ? 'match' : 'matches'}`
          ) : (
            'Searching…'
          )}
        </span>
      )}
    </search>
  );
}
