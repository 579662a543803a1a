#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so it needs no separate build step.
import { register } from 'tsx/esm/api';

register();
await import('../electron/host/cli-main.ts');
