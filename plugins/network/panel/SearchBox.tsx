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
      <button
        type="button"
        className="chip"
        aria-pressed={caseSensitive}
        title="Match case"
        aria-label="Match case"
        onClick={() => {
          setCaseSensitive(!caseSensitive);
          if (state) run({ caseSensitive: !caseSensitive });
        }}
      >
        Aa
      </button>
      <button
        type="button"
        className="chip"
        aria-pressed={regex}
        title="Regular expression"
        aria-label="Regular expression"
        onClick={() => {
          setRegex(!regex);
          if (state) run({ regex: !regex });
        }}
      >
        .*
      </button>
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
