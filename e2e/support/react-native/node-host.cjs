// Runs a Metro bundle of a React Native app under Node, as the native side of React Native would:
// node node-host.cjs <bundle.js | http://<metro>/index.bundle?platform=…&dev=true> <android|ios>
// A URL is fetched from Metro's dev server as a phone in development does; the script then runs
// under that URL (its stack frames name it) and SourceCode.scriptURL is that URL.
//
// Real: the whole bundle as Metro made it (React Native's own polyfills and InitializeCore, its
// XMLHttpRequest, whatwg-fetch, WebSocket, Blob and FileReader classes, Platform, the app and the
// agent), run in a fresh V8 context that has none of Node's globals. Shimmed here, in place of the
// native modules those classes call (the part a phone provides): Networking (Node's http),
// WebSocketModule (the `ws` package), BlobModule and FileReaderModule (bytes kept in a Map),
// PlatformConstants, SourceCode, DeviceInfo and a few no-op modules; the host functions of a
// bridgeless runtime (timers, microtasks, the logging hook). Unknown modules are reported on stderr.
const { readFileSync } = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const vm = require('node:vm');
const WebSocket = require('ws');

const [bundlePath, platform = 'android'] = process.argv.slice(2);
const fromServer = /^https?:\/\//.test(bundlePath);
const rnVersion = JSON.parse(
  readFileSync(require.resolve('react-native/package.json', { paths: [process.cwd()] }), 'utf8'),
).version;
const [major, minor, patch] = rnVersion.split('.').map(Number);

const callables = new Map();
const emit = (event, payload) => {
  const emitter = callables.get('RCTDeviceEventEmitter');
  if (!emitter) return process.stderr.write(`no RCTDeviceEventEmitter for ${event}\n`);
  emitter().emit(event, payload);
};
const later = (f) =>
  setImmediate(() => {
    try {
      f();
    } catch (e) {
      process.stderr.write(`host: ${e.stack}\n`);
    }
  });

// Blobs: what BlobModule holds for the app's Blob objects.
const blobs = new Map();
let nextBlob = 1;
const storeBlob = (bytes, type = '') => {
  const blobId = `host-${nextBlob++}`;
  blobs.set(blobId, bytes);
  return { blobId, offset: 0, size: bytes.length, type, lastModified: Date.now() };
};
const blobBytes = (data) => {
  const bytes = blobs.get(data.blobId) ?? Buffer.alloc(0);
  return bytes.subarray(data.offset ?? 0, (data.offset ?? 0) + (data.size ?? bytes.length));
};

const withListeners = (m) => ({ addListener() {}, removeListeners() {}, ...m });

// Networking: one request per sendRequest, answered with Node's http(s).
let nextRequest = 1;
const requests = new Map();
function sendRequest({ method, url, headers, data, responseType, timeout }, requestId) {
  const u = new URL(url);
  const body =
    data?.string != null
      ? Buffer.from(data.string)
      : data?.base64 != null
        ? Buffer.from(data.base64, 'base64')
        : data?.blob
          ? blobBytes(data.blob)
          : undefined;
  const req = (u.protocol === 'https:' ? https : http).request(
    u,
    { method, headers, timeout: timeout || undefined },
    (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const payload =
          responseType === 'base64'
            ? bytes.toString('base64')
            : responseType === 'blob'
              ? storeBlob(bytes, res.headers['content-type'])
              : bytes.toString('utf8');
        later(() => {
          emit('didReceiveNetworkData', [requestId, payload]);
          emit('didCompleteNetworkResponse', [requestId, '', false]);
        });
      });
      const flat = {};
      for (const [k, v] of Object.entries(res.headers)) flat[k] = Array.isArray(v) ? v.join(', ') : String(v);
      later(() => emit('didReceiveNetworkResponse', [requestId, res.statusCode, flat, url]));
    },
  );
  requests.set(requestId, req);
  req.on('error', (e) => later(() => emit('didCompleteNetworkResponse', [requestId, e.message, false])));
  req.on('timeout', () => {
    req.destroy();
    later(() => emit('didCompleteNetworkResponse', [requestId, 'timed out', true]));
  });
  req.end(body);
}
const pairsToObject = (headers) => (Array.isArray(headers) ? Object.fromEntries(headers) : (headers ?? {}));
const Networking = withListeners({
  // Android's signature: the request id is made in JS.
  sendRequest(...args) {
    if (platform === 'android') {
      const [method, url, requestId, headers, data, responseType, , timeout] = args;
      sendRequest({ method, url, headers: pairsToObject(headers), data, responseType, timeout }, requestId);
    } else {
      const [query, callback] = args;
      const requestId = nextRequest++;
      callback(requestId);
      sendRequest({ ...query, headers: pairsToObject(query.headers) }, requestId);
    }
  },
  abortRequest(id) {
    requests.get(id)?.destroy();
  },
  clearCookies(cb) {
    cb?.(true);
  },
});

// WebSocketModule: the app's WebSocket objects, each a `ws` socket.
const sockets = new Map();
const WebSocketModule = withListeners({
  connect(url, protocols, options, id) {
    // Ports forwarded as `adb reverse` forwards them: { "ws://localhost:7360": "ws://127.0.0.1:<port>" }.
    const reverse = JSON.parse(process.env.RN_HOST_REVERSE ?? '{}');
    const from = Object.keys(reverse).find((prefix) => url.startsWith(prefix));
    const target = from ? reverse[from] + url.slice(from.length) : url;
    const socket = new WebSocket(target, protocols ?? undefined, { headers: options?.headers });
    sockets.set(id, socket);
    socket.on('open', () => later(() => emit('websocketOpen', { id, protocol: socket.protocol ?? '' })));
    socket.on('message', (data, binary) =>
      later(() =>
        emit(
          'websocketMessage',
          binary
            ? { id, type: 'binary', data: Buffer.from(data).toString('base64') }
            : { id, type: 'text', data: data.toString() },
        ),
      ),
    );
    socket.on('close', (code, reason) => later(() => emit('websocketClosed', { id, code, reason: reason.toString() })));
    socket.on('error', (e) => later(() => emit('websocketFailed', { id, message: e.message })));
  },
  send(data, id) {
    sockets.get(id)?.send(data);
  },
  sendBinary(base64, id) {
    sockets.get(id)?.send(Buffer.from(base64, 'base64'));
  },
  ping(id) {
    sockets.get(id)?.ping();
  },
  close(code, reason, id) {
    sockets.get(id)?.close(code, reason);
  },
});

const BlobModule = withListeners({
  getConstants: () => ({ BLOB_URI_SCHEME: 'content', BLOB_URI_HOST: null }),
  addNetworkingHandler() {},
  addWebSocketHandler() {},
  removeWebSocketHandler() {},
  sendOverSocket(blob, id) {
    sockets.get(id)?.send(blobBytes(blob));
  },
  createFromParts(parts, blobId) {
    const bytes = Buffer.concat(parts.map((p) => (p.type === 'string' ? Buffer.from(p.data) : blobBytes(p.data))));
    blobs.set(blobId, bytes);
  },
  release(blobId) {
    blobs.delete(blobId);
  },
});

const FileReaderModule = {
  readAsText: (data, encoding) =>
    Promise.resolve(blobBytes(data).toString(encoding === 'UTF-8' || !encoding ? 'utf8' : 'latin1')),
  readAsDataURL: (data) =>
    Promise.resolve(`data:${data.type || 'application/octet-stream'};base64,${blobBytes(data).toString('base64')}`),
};

const reactNativeVersion = { major, minor, patch, prerelease: null };
const PlatformConstants =
  platform === 'android'
    ? {
        getConstants: () => ({
          isTesting: true,
          reactNativeVersion,
          Version: 34,
          Release: '14',
          Serial: 'unknown',
          Fingerprint: 'host',
          Model: 'Node host',
          Brand: 'Porthole',
          Manufacturer: 'Porthole',
          uiMode: 'normal',
        }),
      }
    : {
        getConstants: () => ({
          isTesting: true,
          reactNativeVersion,
          forceTouchAvailable: false,
          interfaceIdiom: 'phone',
          osVersion: '18.0',
          systemName: 'iOS',
        }),
      };
const screen = { width: 390, height: 844, scale: 3, fontScale: 1 };

const modules = {
  Networking,
  WebSocketModule,
  BlobModule,
  FileReaderModule,
  PlatformConstants,
  SourceCode: {
    getConstants: () => ({
      scriptURL: fromServer
        ? bundlePath
        : `http://localhost:8081/index.bundle?platform=${platform}&dev=false&minify=true`,
    }),
  },
  DeviceInfo: { getConstants: () => ({ Dimensions: { window: screen, screen }, isIPhoneX_deprecated: false }) },
  I18nManager: { getConstants: () => ({ isRTL: false, doLeftAndRightSwapInRTL: true, localeIdentifier: 'en_US' }) },
  NativeMicrotasksCxx: { queueMicrotask: (f) => queueMicrotask(f) },
  NativeIdleCallbacks: {
    requestIdleCallback: (f) => setTimeout(() => f({ didTimeout: false, timeRemaining: () => 10 }), 1),
    cancelIdleCallback: (h) => clearTimeout(h),
  },
  ExceptionsManager: {
    reportException: (e) =>
      process.stderr.write(
        `app exception: ${e.message}\n${e.stack?.map?.((f) => `  at ${f.methodName} ${f.file}:${f.lineNumber}`).join('\n') ?? ''}\n`,
      ),
    updateExceptionMessage() {},
    dismissRedbox() {},
  },
  AppState: withListeners({
    getConstants: () => ({ initialAppState: 'active' }),
    getCurrentAppState: (ok) => ok({ app_state: 'active' }),
  }),
  DevSettings: withListeners({
    reload() {},
    setHotLoadingEnabled() {},
    setIsDebuggingRemotely() {},
    setProfilingEnabled() {},
    addMenuItem() {},
  }),
  LogBox: { show() {}, hide() {} },
  DeviceEventManager: { invokeDefaultBackPressHandler() {} },
  NativePerformanceCxx: {
    now: () => performance.now(),
    timeOrigin: () => performance.timeOrigin,
    reportMark() {},
    reportMeasure() {},
    getMarkTime: () => undefined,
    clearMarks() {},
    clearMeasures() {},
    getEntries: () => [],
    getEntriesByName: () => [],
    getEntriesByType: () => [],
    getEventCounts: () => [],
    getSimpleMemoryInfo: () => ({}),
    getReactNativeStartupTiming: () => ({}),
    getSupportedPerformanceEntryTypes: () => ['mark', 'measure'],
    createObserver: () => ({}),
    getDroppedEntriesCount: () => 0,
    observe() {},
    disconnect() {},
    takeRecords: () => [],
  },
  // The DOM-like reads of React Native's nodes (document, parentNode, textContent…): a root node per
  // surface, nothing laid out.
  NativeDOMCxx: {
    linkRootNode: (rootTag) => ({ rootTag }),
    compareDocumentPosition: () => 0,
    getChildNodes: () => [],
    getElementById: () => null,
    getParentNode: () => null,
    isConnected: () => true,
    getBorderWidth: () => [0, 0, 0, 0],
    getBoundingClientRect: () => [0, 0, 0, 0],
    getInnerSize: () => [0, 0],
    getScrollPosition: () => [0, 0],
    getScrollSize: () => [0, 0],
    getTagName: () => 'RN:View',
    getTextContent: () => '',
    hasPointerCapture: () => false,
    releasePointerCapture() {},
    setPointerCapture() {},
    getOffset: () => [null, 0, 0],
    measure: (_node, callback) => callback(0, 0, 0, 0, 0, 0),
    measureInWindow: (_node, callback) => callback(0, 0, 0, 0),
    measureLayout: (_node, _relative, _onFail, onSuccess) => onSuccess(0, 0, 0, 0),
    setNativeProps() {},
  },
  // Every native feature flag off.
  NativeReactNativeFeatureFlagsCxx: new Proxy({}, { get: () => () => false }),
  Appearance: withListeners({ getColorScheme: () => 'light' }),
};
const missing = new Set();
const turboModuleProxy = (name) => {
  if (name in modules) return modules[name];
  if (!missing.has(name)) {
    missing.add(name);
    if (process.env.RN_HOST_VERBOSE) process.stderr.write(`host: no native module ${name}\n`);
  }
  return null;
};

// Fabric, React Native's renderer's native side: shadow nodes as plain objects, each committed
// tree kept by root tag. Layout is not computed (every measure is zero); events the app's own
// handlers would get come from the agent's ui plugin, not from here.
const fabricRoots = new Map();
const cloned = (node, props, children) => ({
  ...node,
  props: props ? { ...node.props, ...props } : node.props,
  children: children ?? [...node.children],
});
const nativeFabricUIManager = {
  createNode: (tag, viewName, rootTag, props, instanceHandle) => ({
    tag,
    viewName,
    rootTag,
    props: props ?? {},
    children: [],
    instanceHandle,
  }),
  cloneNode: (node) => cloned(node),
  cloneNodeWithNewChildren: (node) => cloned(node, undefined, []),
  cloneNodeWithNewProps: (node, props) => cloned(node, props),
  cloneNodeWithNewChildrenAndProps: (node, props) => cloned(node, props, []),
  createChildSet: () => [],
  appendChild: (parent, child) => void parent.children.push(child),
  appendChildToSet: (set, child) => void set.push(child),
  completeRoot: (rootTag, set) => void fabricRoots.set(rootTag, set),
  measure: (_node, callback) => callback(0, 0, 0, 0, 0, 0),
  measureInWindow: (_node, callback) => callback(0, 0, 0, 0),
  measureLayout: (_node, _relative, _onFail, onSuccess) => onSuccess(0, 0, 0, 0),
  configureNextLayoutAnimation() {},
  sendAccessibilityEvent() {},
  findShadowNodeByTag_DEPRECATED: () => null,
  setNativeProps() {},
  dispatchCommand() {},
  findNodeAtPoint: (_node, _x, _y, callback) => callback(null),
  compareDocumentPosition: () => 0,
  getBoundingClientRect: () => [0, 0, 0, 0],
  setIsJSResponder() {},
  registerEventHandler() {},
  // React's event priorities (its lanes: sync, continuous input, default, idle).
  unstable_DiscreteEventPriority: 2,
  unstable_ContinuousEventPriority: 8,
  unstable_DefaultEventPriority: 32,
  unstable_IdleEventPriority: 268435456,
  unstable_getCurrentEventPriority: () => 32,
};

const levels = ['log', 'info', 'warn', 'error'];
const context = vm.createContext({
  // The host functions a bridgeless React Native runtime installs.
  RN$Bridgeless: true,
  __turboModuleProxy: turboModuleProxy,
  nativeModuleProxy: new Proxy(
    {},
    { get: (_t, name) => (typeof name === 'string' ? turboModuleProxy(name) : undefined) },
  ),
  RN$registerCallableModule: (name, factory) => callables.set(name, factory),
  nativeFabricUIManager,
  nativeLoggingHook: (message, level) => process.stdout.write(`[${levels[level] ?? level}] ${message}\n`),
  nativePerformanceNow: () => performance.now(),
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  // What Hermes itself has (React Native 0.74+): TextEncoder, atob, btoa. Not TextDecoder, URL, crypto.
  TextEncoder,
  atob,
  btoa,
  // Values the test hands the app (a phone app would have them in its code).
  PORTHOLE_TEST: JSON.parse(process.env.PORTHOLE_TEST ?? '{}'),
});
context.global = context;
context.globalThis = context;
context.window = context;

process.on('uncaughtException', (e) => {
  process.stderr.write(`host: uncaught ${e.stack}\n`);
  process.exit(1);
});
(async () => {
  const code = fromServer
    ? await fetch(bundlePath, { signal: AbortSignal.timeout(180_000) }).then((r) => {
        if (!r.ok) throw new Error(`${bundlePath}: HTTP ${r.status}`);
        return r.text();
      })
    : readFileSync(bundlePath, 'utf8');
  vm.runInContext(code, context, { filename: bundlePath });
  // A phone starts the app's root component (RN_HOST_APP names it) once the bundle ran its index file.
  if (process.env.RN_HOST_APP) {
    context.RN$AppRegistry.runApplication(process.env.RN_HOST_APP, { rootTag: 1, initialProps: {}, fabric: true });
  }
  setTimeout(() => process.exit(0), Number(process.env.RN_HOST_MS ?? 20_000)).unref?.();
})().catch((e) => {
  process.stderr.write(`host: ${e.stack}\n`);
  process.exit(1);
});
