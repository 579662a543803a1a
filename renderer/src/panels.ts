/// <reference types="vite/client" />
import type { ComponentType } from 'react';
import type { PanelProps } from './panel-kit.js';

// Found by folder, so a plugin needs no line here: the default export of plugins/<id>/panel/index.tsx.
// Which plugins exist (ids, titles, tools) the window learns from the core, whose one list is
// electron/host/builtin-plugins.ts; the window never imports host or agent code.
const modules = import.meta.glob<ComponentType<PanelProps>>('../../plugins/*/panel/index.tsx', {
  eager: true,
  import: 'default',
});

/** Each plugin's panel, by plugin id (its folder's name, which is its protocol's id). */
export const panels: Record<string, ComponentType<PanelProps>> = Object.fromEntries(
  Object.entries(modules).map(([path, panel]) => [path.split('/').at(-3), panel]),
);
