import { RequestError } from '../../../shared/protocol/request-error.js';
import { type ExampleOptions, examplePlugin } from './example-core.js';

export type { ExampleOptions } from './example-core.js';

// The example plugin in a React Native app (the package's `react-native` condition): no DOM to
// draw, so screenshots come from the app's captureScreenshot (react-native-view-shot, one line:
// docs/react-native.md), and the DOM renderer stays out of the bundle.

/** The example plugin: answers ping and echo, captures screenshots through the app's hook, and sends log entries. */
export function example(options: ExampleOptions = {}) {
  return examplePlugin(options, () =>
    Promise.reject(
      new RequestError(
        'handler-error',
        "this React Native app gives no captureScreenshot: pass example({ captureScreenshot }), e.g. react-native-view-shot's captureScreen (docs/react-native.md, Screenshots)",
      ),
    ),
  );
}
