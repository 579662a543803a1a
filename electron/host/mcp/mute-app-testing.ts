// A Node app (spawned by mcp-failures.test.ts) whose example plugin never answers a ping: the test kills it mid-call.
import { connect } from '../../../agent/index.js';
import { defineAgentPlugin } from '../../../agent/plugin.js';
import { exampleProtocol } from '../../../plugins/example/protocol.js';

const mute = defineAgentPlugin(exampleProtocol, (ctx) => {
  ctx.handle('ping', () => new Promise<never>(() => {}));
});
connect({
  url: process.env.PORTHOLE_URL!,
  app: { id: 'com.test.mute', name: 'Mute App' },
  plugins: [mute],
});
setInterval(() => {}, 1000);
