import { currentFiber } from '../../../agent/react/fiber.js';
import { contextsOf, hooksOf } from '../../../agent/react/fiber-details.js';
import type { RenderSummary, RendersParams } from '../protocol.js';
import type { FiberIds, FiberInfo } from './ids.js';
import { MOUNT, PARENT, type RenderRecords, STATE, WRITTEN } from './renders.js';

/** What rendered after commit `since`, per component, most renders first. */
export function summarize(
  log: RenderRecords,
  ids: FiberIds,
  { since = 0, name, limit }: RendersParams,
): { components: RenderSummary[]; more: number; dropped?: number } {
  const first = Math.max(0, log.n - log.cap);
  const by = new Map<FiberInfo, Tally>();
  const needle = name?.toLowerCase();
  const skip = new Set<FiberInfo>();
  for (let j = first; j < log.n; j++) {
    const i = j % log.cap;
    if (log.at[i]! <= since) continue;
    const info = log.info[i]!;
    let t = by.get(info);
    if (!t) {
      if (skip.has(info)) continue;
      if (needle && !info.name.toLowerCase().includes(needle)) {
        skip.add(info);
        continue;
      }
      by.set(info, (t = new Tally()));
    }
    t.add(log.why[i]!, log.ms[i]!, log.keys[i], log.hooks[i]!, log.ctx[i]!);
  }
  const all = [...by].sort(([, a], [, b]) => b.renders - a.renders || b.ms - a.ms);
  const shown = all.slice(0, limit).map(([info, t]) => t.summary(ids.format(info), info));
  const oldest = first < log.n ? log.at[first % log.cap]! : log.commit + 1;
  const dropped = first > 0 && oldest > since + 1 ? first : undefined;
  return { components: shown, more: all.length - shown.length, dropped };
}

/** One component's renders added up: counts by reason, hooks and contexts by their place. */
class Tally {
  renders = 0;
  ms = -1;
  private readonly reasons: Record<string, number> = { mount: 0, state: 0, parent: 0, forced: 0, written: 0 };
  private readonly props = new Map<string, number>();
  private readonly hooks: number[] = [];
  private readonly ctx: number[] = [];

  add(why: number, ms: number, keys: string | string[] | undefined, hooks: number, ctx: number): void {
    this.renders++;
    if (ms >= 0) this.ms = Math.max(this.ms, 0) + ms;
    const r = this.reasons;
    if (why & MOUNT) r.mount!++;
    if (why & PARENT) r.parent!++;
    if (why & WRITTEN) r.written!++;
    if (why & STATE && !hooks) r.state!++;
    if (!why) r.forced!++;
    if (typeof keys === 'string') this.props.set(keys, (this.props.get(keys) ?? 0) + 1);
    else if (keys) for (const k of keys) this.props.set(k, (this.props.get(k) ?? 0) + 1);
    for (let m = hooks; m; m &= m - 1) {
      const b = 31 - Math.clz32(m & -m);
      this.hooks[b] = (this.hooks[b] ?? 0) + 1;
    }
    for (let m = ctx; m; m &= m - 1) {
      const b = 31 - Math.clz32(m & -m);
      this.ctx[b] = (this.ctx[b] ?? 0) + 1;
    }
  }

  /** The summary, hooks and contexts named as react_inspect lists them: `hook #2 state`, `context Theme`. */
  summary(id: string, info: FiberInfo): RenderSummary {
    const why: Record<string, number> = {};
    const count = (reason: string, n: number) => {
      if (n) why[reason] = (why[reason] ?? 0) + n;
    };
    count('mount', this.reasons.mount!);
    for (const [k, n] of this.props) count(`props.${k}`, n);
    count('state', this.reasons.state!);
    if (this.hooks.length || this.ctx.length) {
      const f = info.ref.deref();
      const cur = f && currentFiber(f);
      const hooks = cur ? hooksOf(cur) : [];
      const contexts = cur ? contextsOf(cur) : [];
      this.hooks.forEach((n, bit) => {
        let index = hooks.length - 1;
        while (index >= 0 && !((hooks[index]!.at ?? Number.POSITIVE_INFINITY) <= bit)) index--;
        count(index >= 0 ? `hook #${index} ${hooks[index]!.kind}` : `hook @${bit}`, n);
      });
      this.ctx.forEach((n, bit) => {
        count(`context ${contexts[bit]?.name ?? `#${bit}`}`, n);
      });
    }
    count('written', this.reasons.written!);
    count('parent', this.reasons.parent!);
    count('forced', this.reasons.forced!);
    const out: RenderSummary = { id, name: info.name, renders: this.renders, why };
    if (this.ms >= 0) out.ms = Math.round(this.ms * 100) / 100;
    return out;
  }
}
