// The layer rules of DESIGN.md ("Runtime layers"), checked by `npm run lint` in CI. A plugin's
// folders are its layers: plugins/<id>/agent/ is agent code, host/ core, panel/ renderer, and the
// .ts files beside them (protocol.ts and any file of the contract it imports) are shared.
// `npm run build:agent` also compiles everything agent code reaches without Node's types, so any
// `node:*` import there fails the build.
const NODE = { dependencyTypes: ['core'] };
const ELECTRON = { path: '^node_modules/electron/' };
const REACT = { path: '^node_modules/(react|react-dom|zustand)/' };
const HOST = { path: '^(electron/|plugins/[^/]+/host/)' };
const RENDERER = { path: '^(renderer/|plugins/[^/]+/panel/)' };
const AGENT = { path: '^(agent/|plugins/[^/]+/agent/)' };
// Tests and test helpers drive several layers at once (a core and an agent), so they are not checked.
const NOT_TESTS = '\\.test\\.tsx?$|/testing\\.ts$';

const layer = (name, from, forbidden) =>
  forbidden.map(([what, to]) => ({
    name: `${name}-must-not-import-${what}`,
    comment: `${name} code must not import ${what} (DESIGN.md, Runtime layers)`,
    severity: 'error',
    from: { path: from, pathNot: NOT_TESTS },
    to,
  }));

module.exports = {
  forbidden: [
    ...layer('shared', '^(shared/|plugins/[^/]+/[^/]+\\.ts$)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
      ['agent-code', AGENT],
    ]),
    ...layer('agent', '^(agent/|plugins/[^/]+/agent/)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
    ]),
    ...layer('core', '^(electron/host/|plugins/[^/]+/host/)', [
      ['electron', ELECTRON],
      ['renderer-code', RENDERER],
      ['react', REACT],
      ['agent-code', AGENT],
    ]),
    ...layer('renderer', '^(renderer/|plugins/[^/]+/panel/)', [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['host-code', HOST],
      ['agent-code', AGENT],
    ]),
    {
      name: 'plugin-part-must-not-import-another-part',
      comment:
        "a plugin's agent/, host/ and panel/ meet only through the contract beside them (protocol.ts), in any plugin (DESIGN.md, Plugins)",
      severity: 'error',
      from: { path: '^plugins/[^/]+/(agent|host|panel)/', pathNot: NOT_TESTS },
      to: { path: '^plugins/[^/]+/(agent|host|panel)/', pathNot: '^plugins/[^/]+/$1/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: '^node_modules' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(out|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
