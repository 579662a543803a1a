#!/usr/bin/env node
// Builds out/mcp-apps/<view>.html: the plugins' panels as MCP Apps (electron/host/mcp/mcp-apps.ts
// serves them as ui:// resources). Each view is one self-contained HTML file, its script and styles
// inline (a host loads it into a sandboxed frame with no network), minified. In a checkout the
// core builds them the same way, in memory, so they are never older than the panels.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Each view and its entry (its name is the file name the core reads). */
export const MCP_APP_VIEWS = {
  'network-requests': 'plugins/network/panel/mcp-app/main.tsx',
  'console-errors': 'plugins/console/panel/mcp-app/main.tsx',
};

/**
 * The project's own modules are pure (a panel helper imported for one function must not bring its
 * file's other imports: zod and RE2 through a protocol.ts, some 600 KB): esbuild may drop what the
 * view does not use. Styles stay, as they are imported for their effect.
 */
const pureSources = {
  name: 'pure-sources',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'pure' || args.kind === 'entry-point') return undefined;
      const resolved = await build.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: 'pure',
      });
      if (resolved.errors.length > 0 || !/\.tsx?$/.test(resolved.path) || resolved.path.includes('node_modules')) {
        return undefined;
      }
      return { path: resolved.path, sideEffects: false };
    });
  },
};

async function buildView(root, entry, title) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    outdir: 'out/mcp-apps',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [pureSources],
  });
  // Inline in the page, the HTML parser must not end the script or style early: `</script` and
  // `<!--` (React's own "<script></script>") only occur in strings, where `<\/` means the same.
  const js = result.outputFiles
    .find((f) => f.path.endsWith('.js'))
    .text.replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--');
  const css = (result.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '').replace(/<\/(style)/gi, '<\\/$1');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${css}</style>
</head>
<body>
<div id="root"></div>
<script>${js}</script>
</body>
</html>
`;
}

/** Every view's HTML, by name. */
export async function buildMcpApps(root) {
  const entries = Object.entries(MCP_APP_VIEWS);
  const pages = await Promise.all(entries.map(([name, entry]) => buildView(root, entry, `Porthole: ${name}`)));
  return Object.fromEntries(entries.map(([name], i) => [name, pages[i]]));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const views = await buildMcpApps(root);
  mkdirSync(join(root, 'out/mcp-apps'), { recursive: true });
  for (const [name, html] of Object.entries(views)) {
    writeFileSync(join(root, 'out/mcp-apps', `${name}.html`), html);
    console.log(`out/mcp-apps/${name}.html: ${(html.length / 1024).toFixed(0)} KiB`);
  }
}
