// `porthole/client`: the running inspector's tools from Node scripts and tests, typed from the tools' own schemas.
export {
  type ConnectInspectorOptions,
  connectInspector,
  type Inspector,
  InspectorUnavailableError,
  type RawCall,
  ToolCallError,
  type ToolListing,
} from './inspector.js';
export type { ToolArgs, ToolName, ToolValue } from './tool-types.js';
