// tsc copies no non-TypeScript files: the n8n icons and codex files must sit beside the built nodes.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const assetExtensions = ['.svg', '.png', '.json'];
function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (assetExtensions.some((ext) => name.endsWith(ext))) cpSync(path, join('dist', path));
  }
}
for (const dir of ['nodes', 'credentials']) copyAssets(dir);
