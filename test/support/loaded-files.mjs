// Preloaded with `--import` (NODE_OPTIONS): appends the URL of every ES module file the process
// loads to the file named by DCCTL_TEST_LOADED_FILES. In-thread hooks where Node.js has them
// (22.15+), the off-thread loader API on Node.js 20.
import * as mod from 'node:module';
import { appendFileSync } from 'node:fs';

const out = process.env.DCCTL_TEST_LOADED_FILES;
if (out) {
  if (typeof mod.registerHooks === 'function') {
    mod.registerHooks({
      load(url, context, next) {
        if (url.startsWith('file:')) appendFileSync(out, `${url}\n`);
        return next(url, context);
      },
    });
  } else {
    const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(${JSON.stringify(out)}, url + '\\n');
  return next(url, context);
}`;
    mod.register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  }
}
