// While mock rules are active, @mswjs/interceptors replaces http(s).request/get and ClientRequest,
// and every request then goes through its mock agent (new socket, no keep-alive, several times the
// cost). This routes each call first: one whose method and URL no rule can match goes to Node's own
// function and stays on the observed path; the others (and any call it cannot read) go to the
// library's. Checked before the request exists, so only the method and URL are known.

type Fn = (this: unknown, ...args: unknown[]) => unknown;
type Ctor = new (...args: unknown[]) => unknown;

export interface HttpModule {
  request: Fn;
  get: Fn;
  ClientRequest?: Ctor;
}

/** What an http(s).request/get call (or `new ClientRequest`) will ask for; undefined when unclear. */
export function targetOf(
  defaultProtocol: string,
  args: readonly unknown[],
): { method: string; url: string } | undefined {
  try {
    const [first, second] = args;
    let url: URL | undefined;
    let o: Record<string, unknown> = {};
    if (typeof first === 'string' || first instanceof URL) {
      url = new URL(first);
      if (second && typeof second === 'object') o = second as Record<string, unknown>;
    } else if (first && typeof first === 'object') {
      o = first as Record<string, unknown>;
    } else {
      return undefined;
    }
    if (o.socketPath !== undefined) return undefined;
    const protocol = str(o.protocol) ?? url?.protocol ?? defaultProtocol;
    let host = str(o.hostname) ?? str(o.host) ?? url?.hostname ?? 'localhost';
    if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
    const port = o.port ?? url?.port;
    const path = str(o.path) ?? (url ? url.pathname + url.search : '/');
    const href = new URL(`${protocol}//${host}${port !== undefined && port !== '' ? `:${port}` : ''}${path}`).href;
    return { method: (str(o.method) ?? 'GET').toUpperCase(), url: href };
  } catch {
    return undefined;
  }
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Puts a router in front of the interception library's functions on `module`; `original` holds Node's
 * own (taken before the library was applied). The library's dispose() puts Node's back over it.
 * A WebSocket handshake (the ws package's) that `socket` answers goes to Node's own function with
 * the connection `socket` gives: Node's http and ws then run as with a real server.
 */
export function routeByRules(
  module: HttpModule,
  original: HttpModule,
  protocol: string,
  mayMock: (method: string, url: string) => boolean,
  socket?: (url: string) => { connection(): unknown; mark: object } | undefined,
  marks?: WeakMap<object, object>,
): void {
  const intercepting = { ...module };
  const toLibrary = (args: unknown[]) => {
    const target = targetOf(protocol, args);
    return !target || mayMock(target.method, target.url);
  };
  /** A handshake a rule answers: the call's options with the rule's connection. */
  const mockedSocket = (args: unknown[]) => {
    const options = args.find((a) => a && typeof a === 'object' && !(a instanceof URL)) as
      | Record<string, unknown>
      | undefined;
    const headers = options?.headers as Record<string, unknown> | undefined;
    const upgrade = headers && Object.entries(headers).find(([n]) => n.toLowerCase() === 'upgrade')?.[1];
    if (!socket || String(upgrade).toLowerCase() !== 'websocket') return undefined;
    const target = targetOf(protocol, args);
    const answer = target && socket(target.url.replace(/^http/i, 'ws'));
    if (!answer) return undefined;
    return {
      args: args.map((a) =>
        a === options ? { ...options, createConnection: answer.connection, agent: undefined } : a,
      ),
      mark: answer.mark,
    };
  };
  for (const name of ['request', 'get'] as const) {
    const library = intercepting[name];
    const own = original[name];
    if (library === own) continue;
    module[name] = function route(this: unknown, ...args: unknown[]) {
      const mocked = mockedSocket(args);
      if (mocked) {
        const req = own.apply(this, mocked.args) as object;
        marks?.set(req, mocked.mark);
        return req;
      }
      return (toLibrary(args) ? library : own).apply(this, args);
    };
  }
  const Library = intercepting.ClientRequest;
  const Own = original.ClientRequest;
  if (Library && Own && Library !== Own) {
    module.ClientRequest = new Proxy(Library, {
      construct: (_target, args) => Reflect.construct(toLibrary(args) ? Library : Own, args) as object,
    });
  }
}
