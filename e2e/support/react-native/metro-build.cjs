// Bundles entries of this React Native app with Metro as `react-native bundle` does (the app's own
// metro.config.js, React Native's Babel preset), all variants at once in one Metro process:
// node metro-build.cjs <entry.js>:<platform>:<dev|release> ... ; prints one JSON line per bundle.
const Metro = require('metro');
const output = require('metro/private/shared/output/bundle');

(async () => {
  // As `react-native bundle --max-workers <cores>`: Metro's default leaves one core free, which on a
  // 2-core machine means no transform workers at all (it transforms in its own thread).
  const config = await Metro.loadConfig({
    config: require.resolve('./metro.config.js'),
    maxWorkers: require('node:os').availableParallelism(),
  });
  const server = await Metro.runMetro(config, { watch: false });
  try {
    // Every bundle at once, as a dev server asked for several: one bundle's resolution and
    // serialization run while the workers transform another's files.
    await Promise.all(
      process.argv.slice(2).map(async (spec) => {
        const [entry, platform, mode] = spec.split(':');
        const dev = mode === 'dev';
        const started = Date.now();
        const options = {
          dev,
          minify: !dev,
          platform,
          entryFile: entry,
          inlineSourceMap: false,
          createModuleIdFactory: config.serializer.createModuleIdFactory,
          customResolverOptions: {},
          customTransformOptions: {},
          unstable_transformProfile: 'default',
        };
        const bundle = await output.build(server, options, { withAssets: false });
        const out = `build/${entry.replace(/\.js$/, '')}.${platform}.${mode}.js`;
        await output.save(bundle, { bundleOutput: out, sourcemapOutput: `${out}.map`, dev, platform }, () => {});
        console.log(JSON.stringify({ spec, out, ms: Date.now() - started }));
      }),
    );
  } finally {
    await server.end();
  }
})().catch((e) => {
  console.error(e?.message ?? e);
  process.exit(1);
});
