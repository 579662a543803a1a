// What the agent answers with, loaded at the first request: the app's bundle carries only the
// hook and the render counting until the inspector asks.
export { inspect } from './inspect.js';
export { override } from './override.js';
export { summarize } from './renders-summary.js';
export { buildTree } from './tree.js';
