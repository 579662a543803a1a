import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { onTestFinished } from 'vitest';
import type { AgentPlugin } from '../../../agent/plugin.js';
import { startPlugin } from '../../../electron/host/plugin-testing.js';
import { waitFor } from '../../../electron/host/testing.js';
import { type ConsoleOptions, type ConsolePluginApi, console as consolePlugin } from '../agent/index.js';
import type { ConsoleProtocol } from '../protocol.js';
import consoleHost from './index.js';

/**
 * The plugin kit's startPlugin with the console agent part in this process, wrapping a console of
 * its own (installed as the global one for the test) whose output is kept in `printed` instead of
 * filling the test log. `seen(text)` waits for a message with that text in the host's store.
 */
export async function startConsoleDebuggee(options: ConsoleOptions = {}) {
  const printed: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      printed.push(String(chunk));
      done();
    },
  });
  const previous = globalThis.console;
  globalThis.console = new Console({ stdout: sink, stderr: sink });
  onTestFinished(() => {
    globalThis.console = previous;
  });
  // The agent part is typed by the wire half of the contract (apps bundle only that); same id and version.
  const agent = consolePlugin({ flushMs: 10, ...options }) as unknown as AgentPlugin<ConsoleProtocol> &
    ConsolePluginApi;
  const t = await startPlugin(consoleHost, agent);
  const seen = (text: string) =>
    waitFor(() => t.host.store.all().find((e) => e.text === text), `"${text.slice(0, 80)}" to arrive`);
  return { t, seen, printed };
}
