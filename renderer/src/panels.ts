/// <reference types="vite/client" />
import type { ComponentType } from 'react';
import type { PanelProps } from './panel-kit.js';

export type PanelModules = Record<string, ComponentType<PanelProps>>;

// Found by folder, so a plugin needs no line here: the default export of plugins/<id>/panel/index.tsx.
// Which plugins exist (ids, titles, tools) the window learns from the core, whose one list is
// electron/host/builtin-plugins.ts; the window never imports host or agent code.
const modules = import.meta.glob<ComponentType<PanelProps>>('../../plugins/*/panel/index.tsx', {
  eager: true,
  import: 'default',
});

/** Panels by plugin id, from `import.meta.glob` of `<plugins folder>/<id>/panel/index.tsx` (the id is the folder's name). */
export function panelsByFolder(found: PanelModules): PanelModules {
  return Object.fromEntries(Object.entries(found).map(([path, panel]) => [path.split('/').at(-3), panel]));
}

/** Each plugin's panel, by plugin id (its folder's name, which is its protocol's id). */
export const panels = panelsByFolder(modules);
