import type { RecordStore, RecordsApi } from '../../../shared/records.js';
import { describeIssues } from '../../../shared/zod-issues.js';
import {
  type ActionView,
  ActionWireSchema,
  type Batch,
  type QueryWire,
  QueryWireSchema,
  type StoreView,
  type StoreWire,
} from '../protocol.js';

/** Per session: the stores the app announced, their action timelines and its queries, bounded in bytes. */
export const LIMITS = { actions: 20_000, actionBytes: 32 * 1024 * 1024, queries: 5000, queryBytes: 8 * 1024 * 1024 };

type Stored = Omit<StoreView, 'active'> & { run: string };

/** What a batch changed, for the panel's events. */
export interface Ingested {
  stores: boolean;
  actions: ActionView[];
  queries: QueryWire[];
  removed: string[];
}

export class StateData {
  private readonly storeRecords: RecordStore<Stored>;
  readonly actions: RecordStore<ActionView>;
  readonly queries: RecordStore<QueryWire>;
  /** The app's current run (its load): stores of other runs are kept, inactive. */
  run: string | undefined;
  refused = 0;
  lastRefusal: string | undefined;

  constructor(records: RecordsApi) {
    this.storeRecords = records.open<Stored>('stores', { maxCount: 1000, persist: true });
    this.actions = records.open<ActionView>('actions', {
      maxCount: LIMITS.actions,
      maxBytes: LIMITS.actionBytes,
      persist: true,
      onDrop: (values) => {
        for (const a of values) {
          const s = this.storeRecords.get(a.store);
          if (!s) continue;
          s.actions--;
          s.dropped++;
        }
      },
    });
    this.queries = records.open<QueryWire>('queries', {
      maxCount: LIMITS.queries,
      maxBytes: LIMITS.queryBytes,
      persist: true,
    });
    for (const s of this.storeRecords.values()) this.run = s.run;
  }

  ingest(batch: Batch): Ingested {
    const out: Ingested = { stores: false, actions: [], queries: [], removed: [] };
    if (batch.full || this.run === undefined) {
      this.run = batch.run;
      out.stores = true;
    }
    // A full batch lists every query the app has: the others are gone.
    const gone = batch.full ? new Set([...this.queries.entries()].map(([hash]) => hash)) : undefined;
    for (const wire of batch.stores ?? []) {
      this.upsert(wire, batch.run);
      out.stores = true;
    }
    for (const raw of batch.actions ?? []) {
      const parsed = ActionWireSchema.safeParse(raw);
      if (!parsed.success) {
        this.refuse(`an action: ${describeIssues(parsed.error)}`);
        continue;
      }
      const a = parsed.data;
      const s = this.storeRecords.get(a.store);
      if (!s) {
        this.refuse(`an action of store ${a.store}, which the app never announced`);
        continue;
      }
      const { repeat = 0, ...first } = a;
      for (let k = 0; k <= repeat; k++) {
        const one: ActionView =
          k === 0
            ? first
            : { store: a.store, seq: a.seq + k, time: a.time, type: a.type, kind: a.kind, action: a.action, diff: [] };
        const key = `${a.store}\n${one.seq}`;
        if (!this.actions.has(key)) s.actions++;
        s.latest = Math.max(s.latest, one.seq);
        this.actions.set(key, one);
        out.actions.push(one);
      }
      out.stores = true;
    }
    for (const [id, n] of Object.entries(batch.dropped ?? {})) {
      const s = this.storeRecords.get(id);
      if (s) {
        s.dropped += n;
        out.stores = true;
      }
    }
    for (const size of batch.sizes ?? []) {
      const s = this.storeRecords.get(size.store);
      if (!s) continue;
      s.size = Math.round(size.bytes);
      if (size.atLeast) s.sizeAtLeast = true;
      else delete s.sizeAtLeast;
      out.stores = true;
    }
    for (const raw of batch.queries ?? []) {
      const parsed = QueryWireSchema.safeParse(raw);
      if (!parsed.success) {
        this.refuse(`a query: ${describeIssues(parsed.error)}`);
        continue;
      }
      this.queries.set(parsed.data.hash, parsed.data);
      out.queries.push(parsed.data);
    }
    for (const q of out.queries) gone?.delete(q.hash);
    for (const hash of [...(batch.removedQueries ?? []), ...(gone ?? [])]) {
      if (this.queries.delete(hash)) out.removed.push(hash);
    }
    if (out.stores) for (const s of this.storeRecords.values()) this.storeRecords.remeasure(s.id);
    return out;
  }

  private upsert(wire: StoreWire, run: string): void {
    const old = this.storeRecords.get(wire.id);
    const next: Stored = {
      ...wire,
      run,
      actions: old?.actions ?? 0,
      latest: old?.latest ?? -1,
      dropped: old?.dropped ?? 0,
      ...(old?.size !== undefined ? { size: old.size, sizeAtLeast: old.sizeAtLeast } : {}),
    };
    this.storeRecords.set(wire.id, next);
  }

  private refuse(what: string): void {
    this.refused++;
    this.lastRefusal = `refused ${what}`.slice(0, 500);
  }

  /** Every store, the current run's first, each flagged active when the app has it now. */
  stores(connected: boolean): StoreView[] {
    const out: StoreView[] = [];
    for (const { run, ...s } of this.storeRecords.values()) {
      out.push({ ...s, active: connected && run === this.run && !s.closed });
    }
    return out.sort((a, b) => Number(b.active) - Number(a.active));
  }

  /** A store's actions, oldest first. */
  timeline(store: string): ActionView[] {
    const out: ActionView[] = [];
    const prefix = `${store}\n`;
    for (const [key, a] of this.actions.entries()) if (key.startsWith(prefix)) out.push(a);
    return out.sort((a, b) => a.seq - b.seq);
  }
}
