import { installReactHook } from './hook.js';

// `import '@porthole/agent/react/register'` as the first import of the app's entry (before React),
// or `node --import @porthole/agent/react/register app.js`: installs the React DevTools hook that
// React injects itself into when it loads, so the react plugin sees every renderer and commit.
installReactHook();
