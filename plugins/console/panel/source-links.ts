/**
 * Where a console source link opens: the window's own read-only source view, or an editor through
 * its URL scheme, filled from a template with the source-mapped file, line and column.
 */
export interface SourceLinkSettings {
  /** `window`, an editor preset, or `custom` (the template below). */
  target: 'window' | 'vscode' | 'cursor' | 'idea' | 'custom';
  /** For `custom`: e.g. `zed://file{path}:{line}:{column}` ({path} always starts with a slash). */
  template: string;
  /** The project folder on this machine: a file the app names by URL (`http://localhost:5173/src/a.ts`) is this folder + its path. */
  root: string;
}

export const EDITOR_TEMPLATES: Record<Exclude<SourceLinkSettings['target'], 'window' | 'custom'>, string> = {
  vscode: 'vscode://file{path}:{line}:{column}',
  cursor: 'cursor://file{path}:{line}:{column}',
  idea: 'idea://open?file={path}&line={line}&column={column}',
};

export const TARGET_NAMES: Record<SourceLinkSettings['target'], string> = {
  window: 'Source view in the window',
  vscode: 'VS Code',
  cursor: 'Cursor',
  idea: 'JetBrains IDE',
  custom: 'Custom URL template',
};

const KEY = 'porthole.console.sourceLinks';
const DEFAULTS: SourceLinkSettings = { target: 'window', template: 'zed://file{path}:{line}:{column}', root: '' };

export function loadSourceLinkSettings(): SourceLinkSettings {
  try {
    const saved = JSON.parse(globalThis.localStorage?.getItem(KEY) ?? 'null') as Partial<SourceLinkSettings> | null;
    if (!saved || typeof saved !== 'object') return DEFAULTS;
    const target = saved.target && saved.target in TARGET_NAMES ? saved.target : DEFAULTS.target;
    return {
      target,
      template: typeof saved.template === 'string' ? saved.template.slice(0, 500) : DEFAULTS.template,
      root: typeof saved.root === 'string' ? saved.root.slice(0, 1000) : '',
    };
  } catch {
    return DEFAULTS;
  }
}

export function saveSourceLinkSettings(settings: SourceLinkSettings): void {
  globalThis.localStorage?.setItem(KEY, JSON.stringify(settings));
}

export interface Place {
  file: string;
  line: number;
  column: number;
}

/** `file:line:column` (a summary's `site`) as its parts. */
export function parseSite(site: string): Place | undefined {
  const m = /^(.*):(\d+):(\d+)$/.exec(site);
  return m ? { file: m[1]!, line: Number(m[2]), column: Number(m[3]) } : undefined;
}

/**
 * The file as a path on this machine: an absolute path or file: URL as it is; a URL's path (or a
 * `webpack://` source's) under the project folder when one is set; else undefined.
 */
export function localPath(file: string, root: string): string | undefined {
  if (/^(?:\/|[A-Za-z]:[\\/])/.test(file)) return file;
  let path: string;
  try {
    const url = new URL(file);
    if (url.protocol === 'file:') return decodeURIComponent(url.pathname).replace(/^\/([A-Za-z]:)/, '$1');
    path = decodeURIComponent(url.pathname);
    if (url.protocol === 'webpack:') path = `${url.host}${path}`;
  } catch {
    path = file;
  }
  if (!root) return undefined;
  const rel = path.replace(/^[./]+/, '');
  if (rel.split('/').includes('..')) return undefined;
  return `${root.replace(/[\\/]+$/, '')}/${rel}`;
}

/** The editor URL for a place, or why there is none (the window's source view is then used). */
export function editorUrl(settings: SourceLinkSettings, place: Place): { url: string } | { why: string } {
  if (settings.target === 'window') return { why: 'window' };
  const template = settings.target === 'custom' ? settings.template : EDITOR_TEMPLATES[settings.target];
  const local = localPath(place.file, settings.root);
  const path = local && !local.startsWith('/') ? `/${local}` : local;
  if (!path)
    return { why: 'Set the project folder (Sources settings) to open files the app names by URL in the editor.' };
  const url = template
    .replaceAll('{path}', encodeURI(path).replaceAll('?', '%3F').replaceAll('#', '%23'))
    .replaceAll('{file}', encodeURI(path).replaceAll('?', '%3F').replaceAll('#', '%23'))
    .replaceAll('{line}', String(place.line))
    .replaceAll('{column}', String(place.column));
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (!scheme || ['javascript', 'data', 'vbscript', 'file', 'blob'].includes(scheme))
    return {
      why: `The template must start with an editor's URL scheme (vscode://, idea://…), not ${scheme ?? 'nothing'}.`,
    };
  return { url };
}
