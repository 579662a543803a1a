import { isFiltering, type NetworkFilter, NO_FILTER, type StatusClass } from './model.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const CLASSES: StatusClass[] = ['2xx', '3xx', '4xx', '5xx', 'pending'];

/** Text, method, status class, failed and mocked: the filters of the requests table. */
export function FilterBar({
  filter,
  onChange,
  shown,
  total,
}: {
  filter: NetworkFilter;
  onChange(filter: NetworkFilter): void;
  shown: number;
  total: number;
}) {
  const set = (patch: Partial<NetworkFilter>) => onChange({ ...filter, ...patch });
  return (
    <div className="filters" role="toolbar" aria-label="Request filters">
      <input
        type="search"
        placeholder="Filter URLs (press /)"
        aria-label="Filter URLs"
        value={filter.text}
        onChange={(e) => set({ text: e.target.value })}
        data-filter
      />
      <select aria-label="Method" value={filter.method} onChange={(e) => set({ method: e.target.value })}>
        <option value="">All methods</option>
        {METHODS.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <select
        aria-label="Status class"
        value={filter.statusClass}
        onChange={(e) => set({ statusClass: e.target.value as StatusClass })}
      >
        <option value="">All statuses</option>
        {CLASSES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      <label className="row small">
        <input type="checkbox" checked={filter.failedOnly} onChange={(e) => set({ failedOnly: e.target.checked })} />
        Failed
      </label>
      <label className="row small">
        <input type="checkbox" checked={filter.mockedOnly} onChange={(e) => set({ mockedOnly: e.target.checked })} />
        Mocked
      </label>
      {isFiltering(filter) && (
        <button type="button" className="link" onClick={() => onChange(NO_FILTER)}>
          Clear filters
        </button>
      )}
      <span className="spacer" />
      <span className="muted small" data-testid="network-count">
        {isFiltering(filter) ? `${shown.toLocaleString()} of ${total.toLocaleString()}` : `${total.toLocaleString()}`}{' '}
        requests
      </span>
    </div>
  );
}
