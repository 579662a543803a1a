import type { DeviceInfo, Platform } from '../shared/protocol/messages.js';
import type * as Device from './device.js';

export { randomId } from './device.js';

// device.ts in React Native's tree (scripts/build-agent-package.js puts it in place): connect() in
// react-native.ts names the device from the platform and gives it an id, so no browser or Node guess.

export const detectPlatform: typeof Device.detectPlatform = (): Platform => 'react-native';

export const detectDevice: typeof Device.detectDevice = (given = {}): DeviceInfo => ({
  id: given.id ?? 'react-native',
  name: given.name ?? 'React Native',
  platform: given.platform ?? 'react-native',
  ...(given.runtime ? { runtime: given.runtime } : {}),
  ...(given.devServer ? { devServer: given.devServer } : {}),
});
