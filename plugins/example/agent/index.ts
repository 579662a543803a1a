import { type ExampleOptions, examplePlugin } from './example-core.js';

export type { ExampleOptions } from './example-core.js';

/** The example plugin: answers ping and echo, captures screenshots, and sends log entries to the inspector. */
export function example(options: ExampleOptions = {}) {
  // The DOM capture (and its library) loads with the first screenshot.
  return examplePlugin(options, async () => (await import('./capture-dom.js')).captureDom());
}
