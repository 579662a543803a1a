import type { Area, AreaKind, KeyInfo } from '../protocol.js';

// The Storage panel's pure parts: how areas are grouped and named, sizes written, keys searched.

const GROUPS: Record<AreaKind, string> = {
  localStorage: 'Web storage',
  sessionStorage: 'Web storage',
  cookies: 'Cookies',
  indexedDB: 'IndexedDB',
  cacheStorage: 'Cache Storage',
  asyncStorage: 'React Native',
  mmkv: 'React Native',
  adapter: 'The app’s stores',
};

/** Areas in groups, in the order the app listed them. */
export function groupAreas(areas: readonly Area[]): { group: string; areas: Area[] }[] {
  const groups = new Map<string, Area[]>();
  for (const area of areas) {
    const name = GROUPS[area.kind] ?? 'Other';
    (groups.get(name) ?? groups.set(name, []).get(name)!).push(area);
  }
  return [...groups].map(([group, list]) => ({ group, areas: list }));
}

/** An area's name as the list shows it: IndexedDB and caches without their kind, parts decoded. */
export function areaLabel(area: Area): string {
  const [kind, ...parts] = area.area.split('/');
  if ((kind === 'indexedDB' || kind === 'cacheStorage' || kind === 'mmkv') && parts.length > 0) {
    return parts.map((p) => safeDecode(p)).join(' › ');
  }
  return area.area;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** A size in bytes as people read it. */
export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The keys whose name or preview holds the search text (any case). */
export function searchKeys(keys: readonly KeyInfo[], text: string): readonly KeyInfo[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return keys;
  return keys.filter((k) => k.key.toLowerCase().includes(needle) || k.preview?.toLowerCase().includes(needle));
}

/** The text the editor starts with: a text value as it is, other values as JSON. */
export function editableText(view: { text?: string; value?: unknown }): string {
  if (view.text !== undefined) return view.text;
  return JSON.stringify(view.value ?? null, null, 2);
}

/** True when a value holds parts JSON cannot write back as they were (dates, binary, maps…). */
export function hasTaggedParts(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.some((v) => hasTaggedParts(v, depth + 1));
  if (typeof (value as { $?: unknown }).$ === 'string') return true;
  return Object.values(value).some((v) => hasTaggedParts(v, depth + 1));
}
