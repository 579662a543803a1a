import type * as Hooks from './error-hooks.js';
import { hookReactNative } from './error-hooks.js';

export type { ErrorSink, NodeProcess } from './error-hooks.js';

// error-hooks.ts in React Native's tree (scripts/build-agent-package.js puts it in place): only
// ErrorUtils, no page events or Node process events.

export const hookErrors: typeof Hooks.hookErrors = hookReactNative;
