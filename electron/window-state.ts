import { join } from 'node:path';
import { readJson, writeFileAtomic } from './host/data-dir.js';
import { type Bounds, DEFAULT_BOUNDS } from './window-options.js';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Bounds;
  maximized: boolean;
}

const file = (dataDir: string) => join(dataDir, 'window-state.json');

/** The last window size and position, kept only if it still overlaps a display enough to grab it. */
export function loadWindowState(dataDir: string, displays: readonly Rect[]): WindowState {
  const saved = readJson<Partial<WindowState>>(file(dataDir), { quarantine: true });
  const bounds = saved?.bounds;
  if (!bounds || !(bounds.width >= 400 && bounds.height >= 300)) return { bounds: DEFAULT_BOUNDS, maximized: false };
  const placed = bounds.x !== undefined && bounds.y !== undefined;
  if (placed && !displays.some((d) => overlap(d, bounds as Rect) >= 100 * 50)) {
    return { bounds: { width: bounds.width, height: bounds.height }, maximized: saved.maximized === true };
  }
  return { bounds, maximized: saved.maximized === true };
}

export function saveWindowState(dataDir: string, state: WindowState): void {
  writeFileAtomic(file(dataDir), `${JSON.stringify(state, null, 2)}\n`);
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
