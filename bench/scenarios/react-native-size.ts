import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packAgent } from '../../e2e/support/outside-app.js';
import { reactNativeApp } from '../../e2e/support/react-native-app.js';
import type { BenchRow } from '../harness.js';
import { defineScenario } from '../harness.js';
import { bundleSize } from '../size/bundle.js';

const root = join(import.meta.dirname, '../..');
const KB = 1024;

const BASE = `import React from 'react';
import { AppRegistry, Text } from 'react-native';

function App() {
  return React.createElement(Text, null, 'hello');
}
AppRegistry.registerComponent('scratch', () => App);
`;
const WITH_AGENT = `import { connect } from '@porthole/agent';
import { consolePlugin } from '@porthole/agent/console';
import { network } from '@porthole/agent/network';
${BASE}
connect({ app: { id: 'com.scratch.rn', name: 'Scratch' }, plugins: [network(), consolePlugin()] });
`;

/**
 * What connect() + network + console add to a React Native app's release bundle, as Metro makes it
 * (React Native 0.88's metro.config.js and Babel preset, minified, gzip -9): the same app built
 * with and without the agent in one Metro process, from the packed tarball, in the cached scratch
 * app the e2e test uses. The floor is Reactotron's core client bundled for the browser (its React
 * Native client is not installed here); the issue's bound is 25 KB gz, its goal 10.
 */
export default defineScenario('React Native bundle size (Metro)', async () => {
  const peer = await bundleSize("export { createClient } from 'reactotron-core-client';", root);
  const app = await reactNativeApp(await packAgent(), { 'base.js': BASE, 'app.js': WITH_AGENT }, [
    { entry: 'base.js', variants: ['android:release', 'ios:release'] },
    { entry: 'app.js', variants: ['android:release', 'ios:release'] },
  ]);
  const size = (file: string) => {
    const code = readFileSync(file);
    return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
  };
  const rows: BenchRow[] = [];
  for (const platform of ['android', 'ios']) {
    const base = size(app.bundles[`base:${platform}:release`]!);
    const withAgent = size(app.bundles[`app:${platform}:release`]!);
    const gzip = withAgent.gzip - base.gzip;
    rows.push({
      scenario: `bundle: React Native ${platform} release, connect() + network + console added`,
      unit: 'KB gz',
      median: gzip / KB,
      p95: gzip / KB,
      floor: { name: 'reactotron-core-client', median: peer.gzip / KB },
      ratio: gzip / peer.gzip,
      note: `${((withAgent.bytes - base.bytes) / KB).toFixed(1)} KB min added to a ${(base.gzip / KB).toFixed(0)} KB gz app; must be ≤ 25 KB gz (goal 10); Metro ${app.seconds.bundle.toFixed(0)} s for 4 bundles${app.cached ? '' : `, install ${app.seconds.install.toFixed(0)} s`}`,
    });
  }
  return rows;
});
