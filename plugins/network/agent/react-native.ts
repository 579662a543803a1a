import { defineAgentPlugin } from '../../../agent/plugin.js';
import { compileMockConfig } from './mock-match.js';
import { NetworkAgent, type NetworkOptions, type NetworkRuntime, protocol } from './network-agent.js';
import { installReactNativeTaps, reactNativeMockPath } from './react-native-taps.js';
import { reactNativeUrlPatterns } from './url-glob.js';

export type { NetworkOptions, NetworkPluginApi } from './network-agent.js';

// The network plugin in a React Native app (the package's `react-native` condition picks this file):
// only what React Native runs. No Node taps, no browser wrappers, no interception library, no RE2:
// Metro bundles every import, lazy or not.

const runtime: NetworkRuntime = {
  install: installReactNativeTaps,
  compile: async (config) => compileMockConfig(config, reactNativeUrlPatterns),
  mockPath: async (_recorder, current) => reactNativeMockPath(current),
};

/** Records every fetch and XMLHttpRequest once (fetch is XHR underneath here) and answers mock rules. */
export function network(options: NetworkOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => new NetworkAgent(ctx, options, runtime).api());
}
