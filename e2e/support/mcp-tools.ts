import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withLock } from './run-once.js';

// The MCP tools users run against a server, installed from the npm registry into one scratch dir
// outside the repo (once per machine and set of versions: later tests and runs reuse it). They need
// Node >= 22 (the conformance suite uses fs.globSync, the Inspector needs 22.19), so a Node 22 is
// installed beside them from the `node` package.

export const MCP_TOOL_PACKAGES = {
  node: 'node@22.23.3',
  /** The suite's latest release: the 2025-06-18 and 2025-11-25 scenarios. */
  conformance: '@modelcontextprotocol/conformance@0.1.16',
  /** Its prerelease with the 2026-07-28 scenarios (and the 2025 ones, with more checks). */
  conformanceNext: 'conformance-next@npm:@modelcontextprotocol/conformance@0.2.0-alpha.12',
  /** The Inspector whose `--cli` is the CLI (the separate inspector-cli 1.0.3 cannot start outside it). */
  inspector: '@modelcontextprotocol/inspector@2.12.0',
  mcpRemote: 'mcp-remote@0.15.1',
};

export interface McpTools {
  dir: string;
  /** Node 22's binary. */
  node: string;
  conformance: { stable: string; next: string };
  /** The Inspector's launcher: run it with `--cli` first. */
  inspector: string;
  mcpRemote: string;
}

const run = promisify(execFile);
let installed: McpTools | undefined;

/** The tools, installed on first use. */
export async function mcpTools(): Promise<McpTools> {
  if (installed) return installed;
  const specs = Object.values(MCP_TOOL_PACKAGES);
  const key = createHash('sha256').update(specs.join(' ')).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `porthole-mcp-tools-${key}`);
  const marker = join(dir, 'installed.json');
  // Two specs use the tools: the other worker may be installing them.
  await withLock(dir, async () => {
    if (existsSync(marker)) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'porthole-mcp-tools', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...specs], {
      cwd: dir,
      timeout: 240_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    writeFileSync(marker, JSON.stringify(specs));
  });
  const modules = join(dir, 'node_modules');
  installed = {
    dir,
    node: join(modules, 'node/bin/node'),
    conformance: {
      stable: join(modules, '@modelcontextprotocol/conformance/dist/index.js'),
      next: join(modules, 'conformance-next/dist/index.js'),
    },
    inspector: join(modules, '@modelcontextprotocol/inspector/clients/launcher/build/index.js'),
    mcpRemote: join(modules, 'mcp-remote/dist/proxy.js'),
  };
  for (const [name, path] of Object.entries(installed))
    if (typeof path === 'string' && !existsSync(path)) throw new Error(`${name} is not where expected: ${path}`);
  return installed;
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script of the tools with their Node 22; HOME is the scratch dir (the Inspector keeps a catalog there). */
export async function runWithNode22(
  tools: McpTools,
  args: string[],
  options: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<ToolRun> {
  try {
    const { stdout, stderr } = await run(tools.node, args, {
      cwd: tools.dir,
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, HOME: tools.dir, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number | string; stdout?: string; stderr?: string; killed?: boolean };
    if (typeof failed.code !== 'number') throw e;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** The server scenarios a version of the suite lists (`conformance list --server`), with their spec versions. */
export async function conformanceScenarios(tools: McpTools, which: 'stable' | 'next') {
  const listed = await runWithNode22(tools, [tools.conformance[which], 'list', '--server']);
  if (listed.code !== 0) throw new Error(`conformance list failed (${listed.code}):\n${listed.stderr}`);
  return [...listed.stdout.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map((m) => ({
    name: m[1]!,
    specVersions: m[2]!.split(','),
  }));
}

/**
 * Runs `conformance server --url <url> ...args` and reads every scenario's checks from its
 * results dir (`server-<scenario>-<timestamp>/checks.json`).
 */
export async function runConformance(tools: McpTools, which: 'stable' | 'next', url: string, args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'porthole-conformance-'));
  const ran = await runWithNode22(tools, [tools.conformance[which], 'server', '--url', url, '-o', out, ...args], {
    timeoutMs: 180_000,
  });
  const results = new Map<string, ConformanceCheck[]>();
  for (const entry of readdirSync(out)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    const file = join(out, entry, 'checks.json');
    if (scenario && existsSync(file)) results.set(scenario, JSON.parse(readFileSync(file, 'utf8')));
  }
  rmSync(out, { recursive: true, force: true });
  return { ...ran, results };
}
