import type { Installed } from './node.js';

// What a browser bundle (and React Native's) gets for node.ts, through the "browser" field of the
// repo's package.json and of agent/package.json: the Node taps stay out of bundles for runtimes that
// have no Node modules to tap.

export function installNodeTaps(): Installed | undefined {
  return undefined;
}

export async function installNodeTapsAsync(): Promise<Installed | undefined> {
  return undefined;
}
