import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { callCommand, historyCommand, toolsCommand } from './cli-call.js';
import type { CoreOptions } from './core.js';
import { resolveDataDir } from './data-dir.js';
import { readInstance } from './instance-file.js';
import {
  coreOptionsFromFlags,
  describeStartupError,
  LAUNCH_FLAG_OPTIONS,
  type Launched,
  launch,
  normalizeLaunchArgs,
} from './launch.js';
import { tokenPath } from './mcp/mcp-token.js';
import { runStdioBridge } from './mcp/stdio-bridge.js';
import { VERSION } from './version.js';

const HELP = `Porthole ${VERSION} — a debugging inspector for JavaScript apps, with an MCP server inside.

Usage:
  porthole serve [flags]   start the inspector without a window (headless mode)
  porthole mcp [--data-dir <dir>] [--plugins <id,id…>]
                           an MCP server on stdio for clients that start one (Claude Desktop, …);
                           it bridges to the running inspector of that data dir; --plugins lists
                           only those plugins' tools (and the inspector's own)
  porthole ui [--data-dir <dir>] [--no-open]
                           opens the running inspector's window link (links work once; this
                           is always the unused one) in a browser, and prints it
  porthole tools [--json]  the running inspector's tools with their arguments
  porthole call <tool> [--<argument> <value> …] [--json '{…}'] [--session <id>] [--text] [--out <file>]
                           calls one tool and prints its value as JSON; --help after the tool
                           name shows its arguments (exit codes: docs/cli.md)
  porthole history list|export-test [--since <time>] [--client <name>] …
                           the call history; export-test writes it as a test that replays
                           the calls (porthole history --help)
  porthole --version
  porthole --help

Flags:
  --data-dir <dir>         where settings, the MCP token and history live
                           (default: $PORTHOLE_DATA_DIR or the OS config dir)
  --debuggee-port <port>   the debuggee link (WebSocket) port, default 7360; 0 = any free port
  --control-port <port>    the MCP endpoint and UI port, default 7361; 0 = any free port
  --no-open                do not open the UI in a browser
  --lan [<pairing-token>]  also accept debuggees from the LAN; they must present this token in their
                           hello (without a value: a random one, kept in <data-dir>/lan-token and printed)
  --allow-origin <origin>  allow browser debuggees from this origin (repeatable), e.g. http://myapp.test:*
  --memory-budget <size>   memory for captured data of all sessions (logs, traffic), default 512 MiB or
                           1/16 of this machine's memory if less; units KiB, MiB, GiB; past it the
                           oldest data is dropped and counted
  --max-sessions <n>       apps connected at once, default 256; the next is refused (too-many-sessions)
  --new-ui-token           renew the UI key: browsers that opened the window before must open the new link
  --source-maps <dir>      a folder of source maps (repeatable), for stacks of apps whose scripts the
                           inspector may not fetch (LAN apps, other origins): <dir>/<script>.map
  --mcp-auth <token|none>  MCP over HTTP needs the bearer token in <data-dir>/mcp-token (default),
                           or nothing with "none" (any local process can then call the tools)
`;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'call') return callCommand(argv.slice(1));
  if (argv[0] === 'tools') return toolsCommand(argv.slice(1));
  if (argv[0] === 'history') return historyCommand(argv.slice(1));
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    console.error(`porthole: ${(e as Error).message}\nRun porthole --help for the flags.`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) return print(HELP);
  if (values.version) return print(VERSION);
  const command = positionals[0] ?? 'serve';
  if (command === 'serve') return serve(values);
  if (command === 'mcp')
    return runStdioBridge({ dataDir: resolveDataDir(values['data-dir']), plugins: values.plugins });
  if (command === 'ui') return openUi(resolveDataDir(values['data-dir']), !values['no-open']);
  console.error(`porthole: unknown command "${command}"\n\n${HELP}`);
  return 2;
}

function parse(argv: string[]) {
  return parseArgs({
    args: normalizeLaunchArgs(argv),
    allowPositionals: true,
    options: {
      ...LAUNCH_FLAG_OPTIONS,
      'no-open': { type: 'boolean', default: false },
      plugins: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

type Flags = ReturnType<typeof parse>['values'];

async function serve(values: Flags): Promise<number> {
  let options: CoreOptions;
  try {
    options = coreOptionsFromFlags(values);
  } catch (e) {
    console.error(`porthole: ${(e as Error).message}`);
    return 2;
  }
  let launched: Launched;
  try {
    launched = await launch(options);
  } catch (e) {
    console.error(`porthole: ${describeStartupError(e, options)}`);
    return 1;
  }
  const { urls } = launched;
  const { dataDir } = options;
  const mcpAuth = options.mcp?.auth;

  console.log(`Porthole ${VERSION} is running (headless).`);
  console.log(`  Debuggee link: ${urls.debuggeeUrl}${options.lanPairingToken ? '  (LAN enabled)' : ''}`);
  if (options.lanPairingToken) console.log(`  LAN pairing token: ${launched.core.lanPairingToken}`);
  console.log(`  MCP endpoint:  ${urls.mcpUrl}`);
  console.log(
    mcpAuth === 'token'
      ? `                 (bearer token in ${tokenPath(dataDir)})`
      : '                 (no token: --mcp-auth none)',
  );
  const uiUrl = urls.uiUrl;
  console.log(`  UI:            ${uiUrl}`);
  console.log('                 (the link works once; porthole ui opens the next one)');
  console.log(`  Data dir:      ${dataDir}`);
  console.log('Press Ctrl+C to stop.');
  if (!values['no-open'] && !process.env.CI) openInBrowser(uiUrl);

  return await new Promise<number>((resolve) => {
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`\nPorthole: ${signal} received, stopping.`);
      await launched.stop();
      resolve(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
}

/** `porthole ui`: the window link that is unused now, from instance.json (the inspector keeps it current). */
function openUi(dataDir: string, open: boolean): number {
  const instance = readInstance(dataDir);
  if (!instance) {
    console.error(`porthole: no inspector is running for ${dataDir}; start one with porthole serve`);
    return 3;
  }
  console.log(instance.uiUrl);
  if (open && !process.env.CI) openInBrowser(instance.uiUrl);
  return 0;
}

function openInBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return;
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no browser to open; the URL is printed above
  }
}

function print(text: string): number {
  console.log(text);
  return 0;
}
