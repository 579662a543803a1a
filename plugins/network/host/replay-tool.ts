import { briefSchema, definePluginTool } from '../../../shared/tool.js';
import { ReplayRequestSchema, ReplayResultSchema, TransactionSummarySchema } from '../protocol.js';
import type { NetworkHost } from './host-api.js';
import { redactSummary } from './redact.js';
import { REPLAY_SETTLE_MS } from './replay.js';

export const replayRequest = definePluginTool<NetworkHost>()({
  name: 'network_replay_request',
  title: 'Replay a network request',
  description: `Sends a captured request again through the app's own fetch (its cookies and origin), as captured or edited; answers within ${REPLAY_SETTLE_MS / 1000} s with the new transaction and what the app could not send.`,
  input: ReplayRequestSchema,
  // The new request's summary is the one network_list_transactions spells out.
  output: ReplayResultSchema.extend({
    transaction: briefSchema(
      TransactionSummarySchema,
      'The new request, as network_list_transactions lists it.',
    ).optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async handler(request, { instance, signal, surface }) {
    const result = await instance.replay(request, signal);
    if (surface === 'ui' || !result.transaction) return result;
    return { ...result, transaction: redactSummary(result.transaction, instance.redactionRules()) };
  },
});
