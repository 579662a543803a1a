import { definePluginTool } from '../../../shared/tool.js';
import { ReplayRequestSchema, ReplayResultSchema } from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import { REPLAY_SETTLE_MS } from './replay.js';

export const replayRequest = definePluginTool<NetworkHost>()({
  name: 'network_replay_request',
  title: 'Replay a network request',
  description: `Sends a captured request again from inside the app, as captured or edited: method, url, headers (each given name replaced or added, null removes it) and body text. It goes through the app's own fetch (a page's cookies, origin and network stack; Node's global fetch), so the server really receives it again. The new request is captured as a new transaction whose replayOf is the original's id; the answer gives its summary once it ended (waiting up to ${REPLAY_SETTLE_MS / 1000} s), the headers the app did not send (set by the runtime itself, or redacted in the app) and a note on anything to know. Use network_get_transaction with the new id for its response. Example: {"id":"ab12-3","method":"PUT","headers":{"x-debug":"1"},"body":"{\\"qty\\":2}"}.`,
  input: ReplayRequestSchema,
  output: ReplayResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  handler: (request, { instance, signal }) => instance.replay(request, signal),
});
