#!/usr/bin/env node
// Runs the TypeScript core through tsx, so the CLI needs no separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/host/cli.ts');
process.exit(await main(process.argv.slice(2)));
