import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './inspector.js';
import { withLock } from './run-once.js';

// A React Native app outside the repo, as `npx @react-native-community/cli init` makes one where it
// matters to the agent: React Native, its Metro config and Babel preset, hermesc. Its install is
// cached (keyed by these versions and the agent's dependencies) under PORTHOLE_RN_CACHE, else
// node_modules/.cache/porthole-rn, which CI can keep between runs; each run puts the packed agent
// tarball into it and bundles with Metro as `react-native bundle` does.
//
// Every child process here is awaited, never run synchronously: a test that blocks its event loop
// for minutes (Metro, hermesc) cannot see the inspector close its idle keep-alive connections (Node
// answers a connection that sent no request within 60 s with a 408 and closes it), and its next
// fetch would be written onto such a socket and read that stale 408.

export const RN_VERSIONS = {
  'react-native': '0.88.1',
  react: '19.3.1',
  metro: '0.87.1',
  '@react-native/metro-config': '0.88.1',
  '@react-native/babel-preset': '0.88.1',
  'hermes-compiler': '260318099.0.8',
};

/** The app's own libraries, at the versions the repo tests with: its state stores. */
const APP_LIBRARIES = ['@reduxjs/toolkit', 'zustand'];

const HERE = join(ROOT, 'e2e/support/react-native');

export type Variant = `${'android' | 'ios'}:${'dev' | 'release'}`;
export const ALL_VARIANTS: Variant[] = ['android:dev', 'android:release', 'ios:dev', 'ios:release'];

export interface ReactNativeApp {
  dir: string;
  /** Whether the install came from the cache, and the seconds each step took. */
  cached: boolean;
  seconds: { install: number; agent: number; bundle: number };
  /** Bundles made, by `<entry>:<platform>:<mode>`: their file. */
  bundles: Record<string, string>;
  hermesc: string;
}

const run = promisify(execFile);

/** The cached app with `tarball` installed in it and `entries` bundled for each variant (one Metro process). */
export async function reactNativeApp(
  tarball: string,
  entries: Record<string, string>,
  builds: { entry: string; variants: Variant[] }[],
): Promise<ReactNativeApp> {
  const agentDeps = JSON.parse(readFileSync(join(ROOT, 'agent/package.json'), 'utf8')).dependencies as Record<
    string,
    string
  >;
  const libraries = Object.fromEntries(
    APP_LIBRARIES.map((name) => [
      name,
      JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string,
    ]),
  );
  const dependencies = { ...agentDeps, ...RN_VERSIONS, ...libraries };
  const key = createHash('sha256').update(JSON.stringify(dependencies)).digest('hex').slice(0, 12);
  const dir = join(process.env.PORTHOLE_RN_CACHE ?? join(ROOT, 'node_modules/.cache/porthole-rn'), key);
  // One run at a time in the folder (a second Playwright run or the bench may be using it).
  return withLock(dir, async () => {
    const seconds = { install: 0, agent: 0, bundle: 0 };
    let t = Date.now();
    const cached = existsSync(join(dir, 'node_modules/react-native/package.json'));
    if (!cached) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch-rn', private: true, dependencies }));
      await npm(['install'], dir);
    }
    seconds.install = (Date.now() - t) / 1000;

    // The tarball as npm unpacks it (its dependencies are in the cached install already).
    t = Date.now();
    const agentDir = join(dir, 'node_modules/@porthole/agent');
    rmSync(agentDir, { recursive: true, force: true });
    mkdirSync(agentDir, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', agentDir, '--strip-components', '1']);
    seconds.agent = (Date.now() - t) / 1000;

    writeFileSync(
      join(dir, 'metro.config.js'),
      "const { getDefaultConfig } = require('@react-native/metro-config');\nmodule.exports = getDefaultConfig(__dirname);\n",
    );
    writeFileSync(
      join(dir, 'babel.config.js'),
      "module.exports = { presets: ['module:@react-native/babel-preset'] };\n",
    );
    writeFileSync(join(dir, 'app.json'), JSON.stringify({ name: 'scratch', displayName: 'Scratch' }));
    for (const [name, text] of Object.entries(entries)) writeFileSync(join(dir, name), text);
    for (const script of ['metro-build.cjs', 'metro-serve.cjs']) copyFileSync(join(HERE, script), join(dir, script));
    rmSync(join(dir, 'build'), { recursive: true, force: true });
    mkdirSync(join(dir, 'build'));

    t = Date.now();
    const specs = builds.flatMap(({ entry, variants }) => variants.map((v) => `${entry}:${v}`));
    const metro = await run(process.execPath, ['metro-build.cjs', ...specs], {
      cwd: dir,
      encoding: 'utf8',
      // Cold, under load, Metro took 2 to 5 minutes per variant; warm (its cache in the temp dir), seconds.
      timeout: 2_400_000,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`Metro failed:\n${`${e.stderr ?? e.message}\n${e.stdout ?? ''}`.slice(-4000)}`);
    });
    seconds.bundle = (Date.now() - t) / 1000;
    const bundles: Record<string, string> = {};
    for (const line of metro.stdout.split('\n')) {
      if (!line.startsWith('{')) continue;
      const { spec, out } = JSON.parse(line) as { spec: string; out: string };
      bundles[spec.replace(/\.js:/, ':').replace(/\.js$/, '')] = join(dir, out);
    }
    const hermesc = join(dir, 'node_modules/hermes-compiler/hermesc/linux64-bin/hermesc');
    return { dir, cached, seconds, bundles, hermesc };
  });
}

/** hermesc as React Native's release build runs it (-O, bytecode); returns its errors. */
export async function compileWithHermes(
  app: ReactNativeApp,
  bundle: string,
): Promise<{ status: number | null; errors: string[] }> {
  const out = bundle.replace(/\.js$/, '.hbc');
  const r = await run(app.hermesc, ['-emit-binary', '-O', '-out', out, bundle], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stderr }) => ({ status: 0, stderr }),
    (e: { code?: number | string; stderr?: string }) => ({
      status: typeof e.code === 'number' ? e.code : null,
      stderr: e.stderr ?? '',
    }),
  );
  return { status: r.status, errors: r.stderr.split('\n').filter((l) => /^\S+:\d+:\d+: error:/.test(l)) };
}

/**
 * Metro's dev server for the app (metro-serve.cjs: `Metro.runServer` with the app's config) on
 * 127.0.0.1 and a free port; `stop()` ends it. It builds a bundle when one is first asked for.
 */
export async function metroDevServer(app: ReactNativeApp): Promise<{ origin: string; stop(): void }> {
  const child = spawn(process.execPath, ['metro-serve.cjs'], { cwd: app.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => void child.kill();
  let output = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Metro did not listen within 60 s:\n${output}`)), 60_000);
      child.stderr.on('data', (d) => (output += d));
      child.stdout.on('data', (d) => {
        output += d;
        const m = /\{"port":(\d+)\}/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Metro exited (${code}):\n${output}`));
      });
    });
    return { origin: `http://127.0.0.1:${port}`, stop };
  } catch (e) {
    stop();
    throw e;
  }
}

/** The Node host (node-host.cjs) that runs a bundle with React Native's JS and shims of its native modules. */
export const NODE_HOST = join(HERE, 'node-host.cjs');

async function npm(args: string[], cwd: string): Promise<void> {
  await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    timeout: 600_000,
  });
}
