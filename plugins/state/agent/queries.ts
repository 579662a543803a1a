import type { QueryWire } from '../protocol.js';

// TanStack Query has no global hook: the app hands its QueryClient to state({ queryClient }). Its
// QueryCache tells of every change; the agent only marks the query (summaries go with the next
// batch, made in work.ts).

export interface QueryLike {
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

export class Queries {
  readonly dirty = new Set<QueryLike>();
  readonly removed = new Set<string>();
  private readonly stop: () => void;

  constructor(
    readonly client: QueryClientLike,
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
}
