// The layer rules of DESIGN.md ("Runtime layers"), checked by `npm run lint` in CI.
// Helper files a plugin's agent part imports (e.g. plugins/network/capture-body.ts) are covered too:
// `npm run build:agent` compiles everything agent code reaches without Node's types, so any
// `node:*` import there fails the build.
const NODE = { dependencyTypes: ['core'] };
const ELECTRON = { path: '^node_modules/electron/' };
const REACT = { path: '^node_modules/(react|react-dom|zustand)/' };
const HOST = { path: '^(electron/|plugins/[^/]+/host)' };
const RENDERER = { path: '^(renderer/|plugins/[^/]+/panel)' };
const AGENT = { path: '^(agent/|plugins/[^/]+/agent)' };

const layer = (name, from, forbidden) =>
  forbidden.map(([what, to]) => ({
    name: `${name}-must-not-import-${what}`,
    comment: `${name} code must not import ${what} (DESIGN.md, Runtime layers)`,
    severity: 'error',
    from: { path: from, pathNot: '\\.test\\.tsx?$|/testing\\.ts$' },
    to,
  }));

module.exports = {
  forbidden: [
    ...layer('shared', '^(shared/|plugins/[^/]+/protocol\\.ts$)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
      ['agent-code', AGENT],
    ]),
    ...layer('agent', '^(agent/|plugins/[^/]+/agent\\.ts$)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
    ]),
    ...layer('core', '^(electron/host/|plugins/[^/]+/host\\.ts$)', [
      ['electron', ELECTRON],
      ['renderer-code', RENDERER],
      ['react', REACT],
      ['agent-code', AGENT],
    ]),
    ...layer('renderer', '^(renderer/|plugins/[^/]+/panel)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['host-code', HOST],
      ['agent-code', AGENT],
    ]),
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: '^node_modules' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|out|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
