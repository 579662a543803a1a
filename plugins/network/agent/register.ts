import { DEFAULT_MAX_BODY_BYTES } from '../constants.js';
import { installBrowserTaps } from './browser.js';
import { installNodeTaps, installNodeTapsAsync } from './node.js';
import { hub } from './observed.js';
import { Holder } from './preload-holder.js';

// `node --import porthole/register app.js` (or `-r porthole/register` for CommonJS): capture starts
// before the app's first line. What it sees before the app's network() joins (at most the last 500
// requests) is handed to that agent when it does.

const h = hub();
h.hold(new Holder(DEFAULT_MAX_BODY_BYTES, 500));
if (!installBrowserTaps(h) && !installNodeTaps(h)) void installNodeTapsAsync(h);
