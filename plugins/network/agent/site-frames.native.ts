import type * as SiteFrames from './site-frames.js';

// site-frames.ts in React Native's tree (scripts/build-agent-package.js puts it in place): React
// Native's taps (react-native-taps.ts) take no call site, so a request has no frames to format.

export const siteFrames: typeof SiteFrames.siteFrames = () => undefined;
