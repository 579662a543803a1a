// The bench page without Porthole.
import { commits } from './app.js';

Object.assign(window, { bench: { commits } });
