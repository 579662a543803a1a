// The CLI's entry: `bin/porthole.js` runs it through tsx; the desktop build bundles it as out/main/cli.js.
import { main } from './cli.js';

process.exit(await main(process.argv.slice(2)));
