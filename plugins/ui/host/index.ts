import { definePlugin } from '../../../shared/host-plugin.js';
import { uiProtocol } from '../protocol.js';
import { uiTools } from './tools.js';
import { createUiHost } from './ui-host.js';

export type { UiHost } from './ui-host.js';

export default definePlugin({
  protocol: uiProtocol,
  title: 'UI',
  create: createUiHost,
  tools: uiTools,
});
