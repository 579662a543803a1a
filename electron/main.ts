// The desktop app: one window on the same core that `porthole serve` runs headless. Thin on purpose:
// everything but window handling lives in electron/host, which never imports Electron.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell } from 'electron';
import { BRIDGE_IPC } from '../shared/bridge.js';
import type { Core, CoreOptions } from './host/core.js';
import {
  coreOptionsFromFlags,
  describeStartupError,
  LAUNCH_FLAG_OPTIONS,
  type Launched,
  type LaunchFlags,
  launch,
  normalizeLaunchArgs,
} from './host/launch.js';
import type { BridgeConnection } from './host/ui-bridge/index.js';
import { contentTypeOf, resolveRendererFile } from './host/ui-bridge/static-ui.js';
import { applicationMenu } from './menu.js';
import { windowMayUse } from './permissions.js';
import { APP_ENTRY, APP_SCHEME, isAppUrl, isExternalUrl, WINDOW_CSP, windowOptions } from './window-options.js';
import { loadWindowState, saveWindowState } from './window-state.js';

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

const { values: flags } = parseArgs({
  args: normalizeLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2)),
  strict: false,
  options: LAUNCH_FLAG_OPTIONS,
});
const rendererDir = join(app.getAppPath(), 'out', 'renderer');
let window: BrowserWindow | undefined;
let launched: Launched | undefined;
let options: CoreOptions | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.whenReady().then(start).catch(fail);
}

async function start(): Promise<void> {
  Menu.setApplicationMenu(applicationMenu(app.name));
  denyPermissions();
  protocol.handle(APP_SCHEME, serveRendererFile);
  options = coreOptionsFromFlags(flags as LaunchFlags);
  launched = await launch({
    ...options,
    ui: { mode: 'desktop' },
    // MCP clients start `porthole mcp` with this app's own binary, run as Node.
    stdioLauncher: {
      command: process.execPath,
      args: [join(app.getAppPath(), 'out', 'main', 'cli.js')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    },
    windowCapture: async () => {
      if (!window) throw new Error('the inspector window is closed');
      const image = await window.webContents.capturePage();
      return { base64: image.toPNG().toString('base64'), ...image.getSize() };
    },
  });
  const running = launched;
  const { dataDir } = options;
  openWindow(running.core, dataDir);
  app.on('activate', () => !window && openWindow(running.core, dataDir));
}

/** The window may write to the clipboard and nothing else; no page may reach devices or screens. */
function denyPermissions(): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(windowMayUse(permission, details.requestingUrl)),
  );
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    windowMayUse(permission, requestingOrigin),
  );
  ses.setDevicePermissionHandler(() => false);
  // Calling back without a stream refuses the capture.
  ses.setDisplayMediaRequestHandler((_request, callback) => callback({}));
}

function openWindow(running: Core, dataDir: string): void {
  const state = loadWindowState(
    dataDir,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow(windowOptions(join(import.meta.dirname, '../preload/preload.cjs'), state.bounds));
  window = win;
  if (state.maximized) win.maximize();

  let connection: BridgeConnection | undefined;
  const connect = () => {
    connection?.close();
    connection = running.ui.bridge.connect((frame) => {
      if (win.isDestroyed()) throw new Error('the window is closed');
      win.webContents.send(BRIDGE_IPC.toWindow, frame);
    });
  };
  const fromWindow = (event: Electron.IpcMainEvent, frame: unknown) => {
    if (event.sender === win.webContents) connection?.receive(frame);
  };
  ipcMain.on(BRIDGE_IPC.toCore, fromWindow);
  // A reload starts a fresh page: give it a fresh connection.
  win.webContents.on('did-start-loading', connect);

  win.webContents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    if (isExternalUrl(url)) void shell.openExternal(url);
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());

  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    saveWindowState(dataDir, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
  });
  win.on('closed', () => {
    ipcMain.removeListener(BRIDGE_IPC.toCore, fromWindow);
    connection?.close();
    window = undefined;
  });
  void win.loadURL(APP_ENTRY);
}

/** Serves out/renderer/ on porthole://app/ with the window's CSP. */
async function serveRendererFile(request: Request): Promise<Response> {
  const file = resolveRendererFile(rendererDir, new URL(request.url).pathname);
  if (!file) return new Response('not found', { status: 404 });
  const headers = { 'content-security-policy': WINDOW_CSP, 'x-content-type-options': 'nosniff' };
  return new Response(await readFile(file), { headers: { ...headers, 'content-type': contentTypeOf(file) } });
}

let stopped = false;
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('will-quit', (event) => {
  if (stopped || !launched) return;
  event.preventDefault();
  void launched.stop().finally(() => {
    stopped = true;
    app.quit();
  });
});

function fail(error: unknown): void {
  // Bad flags have no options yet; their message already names the flag.
  const message = options ? describeStartupError(error, options) : String((error as Error)?.message ?? error);
  dialog.showErrorBox('Porthole could not start', message);
  app.exit(1);
}
