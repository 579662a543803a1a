import { contextBridge, ipcRenderer } from 'electron';
import { PRELOAD_GLOBAL } from '../shared/bridge.js';
import { createPreloadBridge } from './preload-bridge.js';

contextBridge.exposeInMainWorld(PRELOAD_GLOBAL, createPreloadBridge(ipcRenderer));
