// Metro's dev server for this React Native app, as `react-native start` runs it (the app's own
// metro.config.js), on 127.0.0.1 and a free port, without watching files:
// node metro-serve.cjs ; prints {"port":<port>} once it listens, and serves until it is killed.
const Metro = require('metro');

(async () => {
  const config = await Metro.loadConfig({ config: require.resolve('./metro.config.js'), port: 0 });
  const quiet = Metro.mergeConfig(config, { reporter: { update() {} } });
  await Metro.runServer(quiet, {
    host: '127.0.0.1',
    watch: false,
    onReady: (server) => console.log(JSON.stringify({ port: server.address().port })),
  });
})().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
