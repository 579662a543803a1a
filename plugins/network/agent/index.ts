import { defineAgentPlugin } from '../../../agent/plugin.js';
import { installBrowserTaps } from './browser.js';
import { NetworkAgent, type NetworkOptions, type NetworkRuntime, protocol } from './network-agent.js';
import { installNodeTaps, installNodeTapsAsync } from './node.js';

export {
  type BodyParts,
  describeError,
  NetworkAgent,
  type NetworkOptions,
  type NetworkPluginApi,
  type NetworkRuntime,
} from './network-agent.js';

/** Browsers and Node: fetch/XHR wrappers or Node's hooks; RE2 and the interception library load with the first rule. */
const runtime: NetworkRuntime = {
  install: (h) => installBrowserTaps(h) ?? installNodeTaps(h) ?? installNodeTapsAsync(h),
  compile: async (config) => {
    const [{ compileMockConfig }, urls] = await Promise.all([
      import('./mock-match.js'),
      import('../../../shared/safe-regex.js'),
    ]);
    return compileMockConfig(config, urls);
  },
  mockPath: async (recorder, current) => (await import('./intercept.js')).mockPath(recorder, current),
};

/**
 * The network plugin's agent part: observes the app's HTTP traffic without changing it (Node's
 * http/https and undici/fetch through their own hooks, the browser's fetch and XMLHttpRequest
 * through thin wrappers) and, only while mock rules are active, intercepts to answer them.
 * React Native gets its own entry (react-native.ts, by the package's `react-native` condition).
 */
export function network(options: NetworkOptions = {}) {
  return defineAgentPlugin(protocol, (ctx) => new NetworkAgent(ctx, options, runtime).api());
}
