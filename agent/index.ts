export { definePluginProtocol } from '../shared/plugin-protocol.js';
export { RequestError } from '../shared/protocol/request-error.js';
export {
  type Agent,
  type AgentState,
  type AgentStatus,
  type ConnectOptions,
  connect,
  DEFAULT_URL,
} from './connection.js';
export { type AgentPlugin, type AgentPluginContext, defineAgentPlugin } from './plugin.js';
