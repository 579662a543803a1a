// The two things agent/react-native.ts reads from React Native, which the repo does not install.
declare module 'react-native' {
  export const Platform: { OS: string; Version: number | string; constants: unknown };
  export const NativeModules: Record<string, unknown>;
}
