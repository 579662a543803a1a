// The layer rules of DESIGN.md ("Runtime layers"), checked by `npm run lint` in CI. A plugin's
// folders are its layers: plugins/<id>/agent/ is agent code, host/ core, panel/ renderer, and the
// .ts files beside them (protocol.ts and any file of the contract it imports) are shared.
// `npm run build:agent` also compiles everything agent code reaches without Node's types, so any
// `node:*` import there fails the build. A plugins folder elsewhere (the test fixture
// e2e/fixtures/plugins/) follows the same rules.
const PLUGIN = '(?:^|/)plugins/[^/]+/';
const NODE = { dependencyTypes: ['core'] };
const ELECTRON = { path: '^node_modules/electron/' };
const REACT = { path: '^node_modules/(react|react-dom|zustand)/' };
const HOST = { path: `^electron/|${PLUGIN}host/` };
const RENDERER = { path: `^renderer/|${PLUGIN}panel/` };
const AGENT = { path: `^agent/|${PLUGIN}agent/` };
// Tests and test helpers (`testing.ts`, `*-testing.ts`) drive several layers at once (a core, an
// agent, the window's client), so they are not checked; and only they may import test helpers.
const NOT_TESTS = '\\.test\\.tsx?$|[/-]testing\\.ts$';

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
    ...layer('shared', `^shared/|${PLUGIN}[^/]+\\.ts$`, [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
      ['agent-code', AGENT],
    ]),
    ...layer('agent', AGENT.path, [
      ['node-builtins', NODE],
      ['electron', ELECTRON],
      ['react', REACT],
      ['host-code', HOST],
      ['renderer-code', RENDERER],
    ]),
    ...layer('core', `^electron/host/|${PLUGIN}host/`, [
      ['electron', ELECTRON],
      ['renderer-code', RENDERER],
      ['react', REACT],
      ['agent-code', AGENT],
    ]),
    ...layer('renderer', RENDERER.path, [
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
      from: { path: `${PLUGIN}(agent|host|panel)/`, pathNot: NOT_TESTS },
      to: { path: `${PLUGIN}(agent|host|panel)/`, pathNot: `${PLUGIN}$1/` },
    },
    {
      name: 'plugin-agent-must-not-import-the-messenger',
      comment:
        "the messenger loads with the link, after the app's startup (agent/link.ts); a plugin's agent takes RequestError from shared/protocol/request-error.ts, or pulls the messenger and the frame codec into every app's startup bundle",
      severity: 'error',
      from: { path: `${PLUGIN}agent/`, pathNot: NOT_TESTS },
      to: { path: '^shared/protocol/messenger\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-tests-import-test-helpers',
      comment: 'test helpers (testing.ts, *-testing.ts) reach into every layer; product code must not depend on them',
      severity: 'error',
      from: { pathNot: NOT_TESTS },
      to: { path: NOT_TESTS },
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
