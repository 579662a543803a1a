import './zod-config.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { BridgeClient } from './bridge/bridge-client.js';
import { BridgeProvider } from './bridge/context.js';
import { PluginEventHub } from './bridge/plugin-events.js';
import { createTransport } from './bridge/transports.js';
import { wireStores } from './stores/wire.js';
import './styles.css';

const client = new BridgeClient(createTransport());
const hub = new PluginEventHub();
wireStores(client, hub);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BridgeProvider value={{ client, hub }}>
      <App />
    </BridgeProvider>
  </StrictMode>,
);
