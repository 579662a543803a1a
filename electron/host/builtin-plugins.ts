import example from '../../plugins/example/host/index.js';
import network from '../../plugins/network/host/index.js';
import type { HostPluginDefinition } from '../../shared/host-plugin.js';

/** The plugins the inspector runs. Adding a plugin is adding its folder and one line here. */
export const builtinPlugins: readonly HostPluginDefinition[] = [
  example as unknown as HostPluginDefinition,
  network as unknown as HostPluginDefinition,
];
