import type {
  ActParams,
  ActResult,
  NavigateResult,
  PageInfo,
  Screenshot,
  SettleResult,
  SnapshotParams,
  SnapshotResult,
  WaitParams,
  WaitResult,
} from '../protocol.js';

/**
 * Where the outline comes from and where actions go: the DOM in pages and Electron renderers
 * (dom/index.ts, loaded on first use), or another source an app plugs in with `ui({ source })`
 * (React Native's host components, later). Node ids are the source's own, valid for one load.
 */
export interface UiSource {
  page(): PageInfo;
  snapshot(params: SnapshotParams): SnapshotResult | Promise<SnapshotResult>;
  act(params: ActParams): Promise<ActResult>;
  /** The changes since the last act (what its requests brought); ends that act's watch. */
  settle(): Promise<SettleResult>;
  /** Keeps the last act's watch open until `settle` (its requests are still going). */
  hold(): void;
  waitFor(params: WaitParams, signal: AbortSignal): Promise<WaitResult>;
  screenshot(params: { id?: number; fullPage?: boolean }): Promise<Screenshot>;
  /** Outlines an element in the app (undefined: none). */
  highlight(id: number | undefined): void;
  /** `changed` is called (throttled) while the app's UI changes; `undefined` stops watching. */
  watch(changed: (() => void) | undefined): void;
  /** Starts a navigation after answering; sources without one leave it out. */
  navigate?(to: string, allowOrigins: readonly string[]): NavigateResult;
}
