import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { packageRoot } from '../package-root.js';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): a plugin panel served as a `ui://`
 * resource, one self-contained HTML file built from the plugin's own panel code
 * (`plugins/<id>/panel/mcp-app/`, bundled by scripts/build-mcp-apps.js), and the tool whose result
 * it shows. A host that renders apps shows the view with the tool's result; every other client
 * reads the same answer as text and structuredContent.
 */
export interface McpApp {
  uri: string;
  /** The view's file in out/mcp-apps/ and its entry's name in scripts/build-mcp-apps.js. */
  view: string;
  name: string;
  title: string;
  description: string;
  /** The tool whose results the view shows (its `_meta.ui.resourceUri`). */
  tool: string;
}

export const MCP_APPS: readonly McpApp[] = [
  {
    uri: 'ui://porthole/network-requests.html',
    view: 'network-requests',
    name: 'network-requests',
    title: 'Network requests',
    description:
      "The network panel's request table for a network_list_transactions answer; opening a row reads it with network_get_transaction.",
    tool: 'network_list_transactions',
  },
  {
    uri: 'ui://porthole/console-errors.html',
    view: 'console-errors',
    name: 'console-errors',
    title: 'Errors, grouped',
    description:
      "The console panel's error groups for a console_list_errors answer; opening a group reads its last occurrence with console_get_message.",
    tool: 'console_list_errors',
  },
];

/** What the server declares: it serves the extension's HTML views. */
export const MCP_APPS_SERVER_EXTENSION = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };

/**
 * The spec: servers SHOULD check the client's capabilities before they link tools to views, so a
 * tool carries `_meta.ui` only for a client that declared the extension with this mime type.
 */
export function rendersApps(capabilities: ClientCapabilities | undefined): boolean {
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** The `_meta` of a listed tool for a client that renders apps: its view, when it has one. */
export function uiMetaOf(tool: string): { ui: { resourceUri: string } } | undefined {
  const app = MCP_APPS.find((a) => a.tool === tool);
  return app && { ui: { resourceUri: app.uri } };
}

/** resources/list: the views of the tools this client sees. */
export function listAppResources(listedTools: ReadonlySet<string>): { resources: Resource[] } {
  return {
    resources: MCP_APPS.filter((app) => listedTools.has(app.tool)).map((app) => ({
      uri: app.uri,
      name: app.name,
      title: app.title,
      description: app.description,
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: VIEW_META },
    })),
  };
}

/** No network, nothing from elsewhere: the views are one file and get their data from the host. */
const VIEW_META = { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true };

/** resources/read of a view; undefined for a URI that is not one (the caller answers "not found"). */
export async function readAppResource(uri: string): Promise<ReadResourceResult | undefined> {
  const app = MCP_APPS.find((a) => a.uri === uri);
  if (!app) return undefined;
  const html = (await views())[app.view];
  if (html === undefined) throw new Error(`the view ${app.view} was not built; run npm run build`);
  return { contents: [{ uri: app.uri, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: { ui: VIEW_META } }] };
}

/** The URIs of every view, for a "not found" answer that says what there is. */
export function appUris(): string[] {
  return MCP_APPS.map((a) => a.uri);
}

let built: Promise<Record<string, string>> | undefined;

/**
 * The views' HTML: built with the package (out/mcp-apps/), or, in a checkout, from the sources
 * once per process, so they are never older than the panels (as the page agent is).
 */
function views(): Promise<Record<string, string>> {
  built ??= (async () => {
    const root = packageRoot();
    const script = join(root, 'scripts/build-mcp-apps.js');
    if (existsSync(join(root, 'plugins')) && existsSync(script)) {
      const { buildMcpApps } = (await import(pathToFileURL(script).href)) as {
        buildMcpApps(root: string): Promise<Record<string, string>>;
      };
      return buildMcpApps(root);
    }
    const out: Record<string, string> = {};
    for (const app of MCP_APPS) {
      const file = join(root, 'out/mcp-apps', `${app.view}.html`);
      if (existsSync(file)) out[app.view] = readFileSync(file, 'utf8');
    }
    return out;
  })();
  built.catch(() => (built = undefined));
  return built;
}
