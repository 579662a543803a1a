// `porthole/client`: the running inspector's tools from Node scripts and tests, typed from the tools' own schemas.
export {
  type ConsoleErrorsOptions,
  type FailedRequest,
  type FailedRequestsOptions,
  type LoggedError,
  PortholeExpectationError,
} from './expectations.js';
export {
  type Checks,
  type ConnectInspectorOptions,
  connectInspector,
  type Inspector,
  InspectorUnavailableError,
  type NetworkHelpers,
  type PluginMethods,
  type PortholeSession,
  type RawCall,
  type SessionMatch,
  type SessionScope,
  scopedSession,
  ToolCallError,
  type ToolListing,
} from './inspector.js';
export type { ToolArgs, ToolName, ToolValue } from './tool-types.js';
