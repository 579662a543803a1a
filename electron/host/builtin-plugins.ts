// The built-in plugins, one line each: the host part of plugins/<id>/, exported as its id.
// The core runs every plugin exported here; the window shows what the core runs and finds each
// plugin's panel by its folder (renderer/src/panels.ts), so adding a plugin is its folder and one line.
// Keep the lines sorted by id: that is the order an ES module namespace lists them in.
export { default as actions } from '../../plugins/actions/host/index.js';
export { default as console } from '../../plugins/console/host/index.js';
export { default as example } from '../../plugins/example/host/index.js';
export { default as network } from '../../plugins/network/host/index.js';
export { default as react } from '../../plugins/react/host/index.js';
export { default as state } from '../../plugins/state/host/index.js';
export { default as storage } from '../../plugins/storage/host/index.js';
export { default as ui } from '../../plugins/ui/host/index.js';
