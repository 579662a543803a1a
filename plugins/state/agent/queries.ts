import { Serializer } from '../../../agent/serialize.js';
import type { Batch, QueryWire } from '../protocol.js';

// TanStack Query has no global hook: the app hands its QueryClient to state({ queryClient }). Its
// QueryCache tells of every change; the agent only marks the query and sends summaries with the
// next batch.

interface QueryLike {
  queryHash: string;
  queryKey: unknown;
  state: {
    data?: unknown;
    error?: unknown;
    status: QueryWire['status'];
    fetchStatus: QueryWire['fetchStatus'];
    dataUpdatedAt: number;
    errorUpdatedAt: number;
    dataUpdateCount: number;
    fetchFailureCount: number;
    isInvalidated: boolean;
  };
  getObserversCount(): number;
  isStale(): boolean;
}

type Filters = { queryKey?: unknown; exact?: boolean };

/** The part of a TanStack Query `QueryClient` (v4, v5) the plugin uses. */
export interface QueryClientLike {
  getQueryCache(): {
    subscribe(listener: (event: { type: string; query: QueryLike }) => void): () => void;
    getAll(): QueryLike[];
    get(hash: string): QueryLike | undefined;
    find(filters: Filters): QueryLike | undefined;
    findAll(filters?: Filters): QueryLike[];
  };
  invalidateQueries(filters?: Filters): Promise<unknown>;
  refetchQueries(filters?: Filters): Promise<unknown>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 2000);

export class Queries {
  private dirty = new Set<QueryLike>();
  private removed = new Set<string>();
  private readonly stop: () => void;

  constructor(
    private readonly client: QueryClientLike,
    changed: () => void,
  ) {
    const cache = client.getQueryCache();
    for (const q of cache.getAll()) this.dirty.add(q);
    this.stop = cache.subscribe(({ type, query }) => {
      if (type === 'removed') {
        this.dirty.delete(query);
        this.removed.add(query.queryHash);
      } else this.dirty.add(query);
      changed();
    });
  }

  dispose(): void {
    this.stop();
  }

  summary(q: QueryLike): QueryWire {
    const s = q.state;
    const out: QueryWire = {
      hash: q.queryHash.slice(0, 4000),
      key: new Serializer({ depth: 4, maxString: 200, maxItems: 10, maxBytes: 1000 }).value(q.queryKey),
      status: s.status,
      fetchStatus: s.fetchStatus,
      dataUpdatedAt: s.dataUpdatedAt,
      errorUpdatedAt: s.errorUpdatedAt,
      observers: q.getObserversCount(),
      stale: q.isStale(),
      invalidated: s.isInvalidated,
      updates: s.dataUpdateCount,
      failures: s.fetchFailureCount,
    };
    if (s.error != null) out.error = message(s.error);
    return out;
  }

  /** Summaries of what changed (all of them when `full`), and the hashes of those removed. */
  take(full: boolean): Pick<Batch, 'queries' | 'removedQueries'> {
    const cache = this.client.getQueryCache();
    const changed = full ? cache.getAll() : [...this.dirty];
    const out: Pick<Batch, 'queries' | 'removedQueries'> = {};
    if (changed.length) out.queries = changed.slice(0, 5000).map((q) => this.summary(q));
    if (this.removed.size) out.removedQueries = [...this.removed].slice(0, 5000);
    this.dirty.clear();
    this.removed.clear();
    return out;
  }

  /** A query by its hash, or by its key (an array, matched exactly). */
  find(key: unknown): QueryLike {
    const cache = this.client.getQueryCache();
    const q =
      (typeof key === 'string' ? cache.get(key) : undefined) ??
      cache.find({ queryKey: Array.isArray(key) ? key : [key], exact: true });
    if (!q) throw new Error(`no query ${JSON.stringify(key)?.slice(0, 200)} in the app's QueryClient now`);
    return q;
  }

  /** Invalidates or refetches the queries whose key starts with `key` (all without one); returns how many. */
  change(mode: 'invalidate' | 'refetch', key: unknown): number {
    const filters = key === undefined || key === null ? {} : { queryKey: Array.isArray(key) ? key : [key] };
    const n = this.client.getQueryCache().findAll(filters).length;
    const done = mode === 'invalidate' ? this.client.invalidateQueries(filters) : this.client.refetchQueries(filters);
    done.catch(() => {});
    return n;
  }
}
