import type { ComponentType } from 'react';
import ExamplePanel from '../../plugins/example/panel/index.js';
import NetworkPanel from '../../plugins/network/panel/index.js';
import type { PanelProps } from './panel-kit.js';

/** Each plugin's panel, by plugin id. Adding a plugin's panel is one line here. */
export const panels: Record<string, ComponentType<PanelProps>> = {
  example: ExamplePanel,
  network: NetworkPanel,
};
